/** The chat panel's composer state (draft, attachments, file drop), Stop, and the send path wired to slash commands. */
import { useCallback } from 'react'
import { useAbort } from '../../api/prompt-mutations'
import { attachmentInfoOf, type PendingAttachment, readFiles, useAttachmentNotices, useAttachmentsStore, useComposerAttachments, useFileDrop } from '../attachments'
import { modelForPrompt, modelKey } from '../models'
import { useDraftsStore } from './drafts-store'
import type { ChatSession, useChatMessages } from './use-chat-session'
import { useComposerCommands } from './use-composer-commands'
import { useEscapeStops } from './use-escape-stops'
import { useSendTurn } from './use-send-turn'

function focusComposerEnd() {
  const box = document.querySelector<HTMLTextAreaElement>('textarea[data-testid="composer"]')
  if (!box) return
  box.focus()
  box.setSelectionRange(box.value.length, box.value.length)
}

/** The draft and attachments under one drafts key, and the ways files come in. */
export function useComposerBox(dkey: string, model: ChatSession['model']) {
  const draft = useDraftsStore((s) => s.drafts[dkey] ?? '')
  const setDraftOf = useDraftsStore((s) => s.setDraft)
  const attachments = useComposerAttachments(dkey)
  const notices = useAttachmentNotices(dkey)
  // What the selected model takes, from the server's provider list (undefined: not known, not judged).
  const modelInfo = attachmentInfoOf(model.options.find((o) => model.resolved.ref && o.key === modelKey(model.resolved.ref))?.capabilities)
  const addFiles = useCallback((files: File[]) => void readFiles(files).then((list) => useAttachmentsStore.getState().add(dkey, list)), [dkey])
  const drop = useFileDrop(addFiles)
  const setDraft = useCallback((t: string) => setDraftOf(dkey, t), [setDraftOf, dkey])
  const editInComposer = useCallback(
    (text: string, files: PendingAttachment[]) => {
      useDraftsStore.getState().giveBack(dkey, text)
      if (files.length) useAttachmentsStore.getState().restore(dkey, files)
      // Given back to be edited: the cursor goes there, at the end of the text, once it is shown.
      requestAnimationFrame(focusComposerEnd)
    },
    [dkey],
  )
  return { dkey, draft, setDraft, attachments, notices, modelInfo, addFiles, drop, editInComposer }
}

export type ComposerBox = ReturnType<typeof useComposerBox>

/** Stop (the button and Esc) aborts the running turn. */
export function useStopTurn(sessionID: string | undefined, busy: boolean) {
  const abort = useAbort()
  const { mutate: abortTurn } = abort
  const stop = useCallback(() => {
    if (sessionID) abortTurn(sessionID)
  }, [sessionID, abortTurn])
  useEscapeStops(busy && !!sessionID, stop)
  return { abort, stop }
}

export function useChatTurn(o: { sessionID: string | undefined; onSelect(id: string): void; chat: ChatSession; shown: ReturnType<typeof useChatMessages>; box: ComposerBox }) {
  const { sessionID, chat, shown, box } = o
  const { model } = chat
  const commands = useComposerCommands({ sessionID, messages: shown.visible, options: model.options, draft: box.draft, setDraft: box.setDraft })
  const turn = useSendTurn({
    directory: chat.directory,
    sessionID,
    messageIDs: shown.messageIDs,
    status: chat.status,
    sessionError: shown.sessionError,
    busy: chat.busy,
    draft: box.draft,
    attachments: box.attachments,
    intercept: commands.intercept,
    model: modelForPrompt(model.resolved),
    agent: model.chosenAgent ?? chat.session?.agent,
    onSelect: o.onSelect,
  })
  return { commands, turn }
}
