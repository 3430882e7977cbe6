/** The chat panel's composer: the message box wired to the draft, its attachments, Send and Stop. */
import type { ModelRef } from '../../../shared/ipc-contract'
import type { MessageWithParts } from '../../api/types'
import { sendBlocker, useAttachmentsStore, AttachButton, ComposerAttachments } from '../attachments'
import type { ModelOption } from '../models'
import { Composer } from './Composer'
import { useEditRequest } from '../retake'
import type { ComposerAssist } from './use-slash-menu'
import type { ComposerBox } from './use-chat-turn'

/** ↑ in the empty box: ask to edit the last message sent (unless a retake holds the session); false when there is none. */
function editLastSent(messages: MessageWithParts[] | undefined, retakeLocked: boolean): boolean {
  const last = messages?.findLast((m) => m.info.role === 'user')
  if (last && !retakeLocked) useEditRequest.getState().request(last.info.id)
  return !!last
}

export function ChatComposer(p: {
  box: ComposerBox
  messages: MessageWithParts[] | undefined
  busy: boolean
  retakeLocked: boolean
  error: string | null
  assist: ComposerAssist
  options: ModelOption[]
  onSend(): void
  onStop(): void
  onChooseModel(ref: ModelRef): void
}) {
  const { box, retakeLocked } = p
  const attachStore = useAttachmentsStore.getState()
  return (
    <Composer
      value={box.draft}
      onChange={box.setDraft}
      onSend={p.onSend}
      onStop={p.onStop}
      busy={p.busy}
      disabled={retakeLocked}
      error={p.error}
      hasAttachments={box.attachments.length > 0}
      blocked={sendBlocker(box.attachments, box.modelInfo)}
      onPasteFiles={box.addFiles}
      assist={p.assist}
      onEditLast={() => editLastSent(p.messages, retakeLocked)}
      attachButton={<AttachButton onFiles={box.addFiles} disabled={retakeLocked} />}
      attachments={
        <ComposerAttachments
          attachments={box.attachments}
          notices={box.notices}
          model={box.modelInfo}
          options={p.options}
          onRemove={(id) => attachStore.remove(box.dkey, id)}
          onDismissNotices={() => attachStore.dismissNotices(box.dkey)}
          onChooseModel={p.onChooseModel}
        />
      }
    />
  )
}
