/** The open session: header (title, model, agent, status), timeline, composer. */
import { useCallback, useEffect, useMemo, useState } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import { useAbort } from '../../api/mutations'
import { useMessages, useSessions, useStatusMap } from '../../api/queries'
import { useScope } from '../../api/scope'
import { useUiStore } from '../../ui/ui-store'
import { useSettled } from '../../ui/use-settled'
import { attachmentInfoOf, sendBlocker, type PendingAttachment } from '../attachments/attachments'
import { readFiles, useAttachmentNotices, useAttachmentsStore, useComposerAttachments } from '../attachments/attachments-store'
import { AttachButton, ComposerAttachments } from '../attachments/ComposerAttachments'
import { useFileDrop } from '../attachments/use-file-drop'
import { useCaptureProgress } from '../checkpoints/use-checkpoints'
import { CheckpointsPanel, ProviderKeysDialog } from '../lazy'
import { modelForPrompt, modelKey } from '../models/model-choice'
import { RetrySessionLayer } from '../retake/RetrySessionLayer'
import { useRetryStore } from '../retake/retry-store'
import { ChatHeader } from './ChatHeader'
import { Composer } from './Composer'
import { draftKey, useDraftsStore } from './drafts-store'
import { useEditRequest } from './edit-request-store'
import { bannerError } from './message-errors'
import { PermissionPrompt } from './PermissionPrompt'
import { QuestionPrompt } from './QuestionPrompt'
import { SendNotices } from './SendNotices'
import { SessionErrorBanner } from './SessionErrorBanner'
import { useSessionErrors } from './session-errors-store'
import { isBusy } from './status-line'
import { Timeline } from './Timeline'
import { useComposerCommands } from './use-composer-commands'
import { useEscapeStops } from './use-escape-stops'
import { useSendTurn } from './use-send-turn'
import { useSessionModel } from './use-session-model'
import { visibleMessages } from './visible-messages'

export function ChatView({ sessionID, onSelect }: { sessionID: string | undefined; onSelect(id: string): void }) {
  const { directory } = useScope()
  const session = useSessions().data?.find((s) => s.id === sessionID)
  const messages = useMessages(sessionID)
  const status = useStatusMap().data?.[sessionID ?? '']
  const busy = isBusy(status)
  const streamConnected = useUiStore((s) => s.stream !== 'reconnecting')
  const model = useSessionModel(directory, sessionID, session)
  const [keysOpen, setKeysOpen] = useState(false)
  const [checkpointsOpen, setCheckpointsOpen] = useState(false)

  const visible = useMemo(() => visibleMessages(messages.data ?? [], session?.revert), [messages.data, session?.revert])
  const messageIDs = useMemo(() => (messages.data ?? []).map((m) => m.info.id), [messages.data])
  const sessionError = useSessionErrors((s) => (sessionID ? s.errors[sessionID] : undefined))
  const clearSessionError = useSessionErrors((s) => s.clear)
  // session.error arrives a few ms before the failed message; wait so the banner does not flash.
  const banner = useSettled(bannerError(sessionError, visible), 1000)

  const dkey = draftKey(directory, sessionID)
  const draft = useDraftsStore((s) => s.drafts[dkey] ?? '')
  const setDraft = useDraftsStore((s) => s.setDraft)
  const attachments = useComposerAttachments(dkey)
  const attachmentNotices = useAttachmentNotices(dkey)
  const attachStore = useAttachmentsStore.getState()
  // What the selected model takes, from the server's provider list (undefined: not known, not judged).
  const modelInfo = attachmentInfoOf(model.options.find((o) => model.resolved.ref && o.key === modelKey(model.resolved.ref))?.capabilities)
  const addFiles = useCallback((files: File[]) => void readFiles(files).then((list) => useAttachmentsStore.getState().add(dkey, list)), [dkey])
  const drop = useFileDrop(addFiles)

  const abort = useAbort()
  const { mutate: abortTurn } = abort
  const stop = useCallback(() => {
    if (sessionID) abortTurn(sessionID)
  }, [sessionID, abortTurn])
  useEscapeStops(busy && !!sessionID, stop)
  // Send and ↺ are locked while a retry of this session runs.
  const retryLocked = useRetryStore((s) => (sessionID ? s.running[sessionID] !== undefined : false))
  const editInComposer = useCallback(
    (text: string, files: PendingAttachment[]) => {
      useDraftsStore.getState().giveBack(dkey, text)
      if (files.length) useAttachmentsStore.getState().restore(dkey, files)
    },
    [dkey],
  )
  const title = session?.title
  useEffect(() => {
    document.title = title ? `${title} — Retake` : 'Retake'
  }, [title])

  const captureProgress = useCaptureProgress()
  const commands = useComposerCommands({ sessionID, messages: visible, options: model.options, draft, setDraft: useCallback((t: string) => setDraft(dkey, t), [setDraft, dkey]) })
  const turn = useSendTurn({
    directory,
    sessionID,
    messageIDs,
    status,
    sessionError,
    busy,
    draft,
    attachments,
    intercept: commands.intercept,
    model: modelForPrompt(model.resolved),
    agent: model.chosenAgent ?? session?.agent,
    onSelect,
  })

  return (
    <div className={`chat${drop.dragging ? ' att-dragging' : ''}`} {...drop.handlers}>
      <ChatHeader
        title={session?.title ?? (sessionID ? '' : 'New conversation')}
        providers={{ list: model.providers.data?.providers ?? [], loading: model.providers.isLoading }}
        agents={{ list: model.agents.data ?? [], loading: model.agents.isLoading }}
        resolved={model.resolved}
        agent={model.agent}
        onModel={model.chooseModel}
        onAgent={model.chooseAgent}
        onKeys={() => setKeysOpen(true)}
        onCheckpoints={sessionID ? () => setCheckpointsOpen(true) : undefined}
        status={status}
        streamConnected={streamConnected}
      />
      {model.providers.error && <div className="inline-error">{errorMessage(model.providers.error)}</div>}
      <RetrySessionLayer
        sessionID={sessionID}
        messages={messages.data ?? []}
        model={model.resolved.ref}
        providers={model.providers.data?.providers ?? []}
        busy={busy}
        statusTick={status?.type}
        onChooseModel={model.chooseModel}
        onEdit={editInComposer}
      >
        <Timeline
          sessionID={sessionID}
          messages={visible}
          empty={<TimelineEmpty loading={messages.isLoading} error={messages.error} />}
          footer={banner && sessionID ? <SessionErrorBanner error={banner} onDismiss={() => clearSessionError(sessionID)} /> : null}
        />
        {commands.bridge}
      </RetrySessionLayer>
      <PermissionPrompt sessionID={sessionID} />
      <QuestionPrompt sessionID={sessionID} />
      <SendNotices progress={captureProgress} checkpointFailed={turn.checkpointFailed} onSendWithoutCheckpoint={() => void turn.onSend({ skipCheckpoint: true })} />
      <Composer
        value={draft}
        onChange={(t) => setDraft(dkey, t)}
        onSend={() => void turn.onSend()}
        onStop={stop}
        busy={busy}
        disabled={retryLocked}
        error={turn.sendError ?? (abort.error ? errorMessage(abort.error) : null)}
        hasAttachments={attachments.length > 0}
        blocked={sendBlocker(attachments, modelInfo)}
        onPasteFiles={addFiles}
        assist={commands.assist}
        onEditLast={() => {
          const last = messages.data?.findLast((m) => m.info.role === 'user')
          if (last && !retryLocked) useEditRequest.getState().request(last.info.id)
          return !!last
        }}
        attachButton={<AttachButton onFiles={addFiles} disabled={retryLocked} />}
        attachments={
          <ComposerAttachments
            attachments={attachments}
            notices={attachmentNotices}
            model={modelInfo}
            options={model.options}
            onRemove={(id) => attachStore.remove(dkey, id)}
            onDismissNotices={() => attachStore.dismissNotices(dkey)}
            onChooseModel={model.chooseModel}
          />
        }
      />
      {keysOpen && <ProviderKeysDialog onClose={() => setKeysOpen(false)} />}
      {checkpointsOpen && sessionID && <CheckpointsPanel sessionID={sessionID} busy={busy} onClose={() => setCheckpointsOpen(false)} />}
    </div>
  )
}

function TimelineEmpty({ loading, error }: { loading: boolean; error: unknown }) {
  if (loading) return <div className="empty muted">Loading messages…</div>
  if (error)
    return (
      <div className="inline-error" role="alert">
        {errorMessage(error)}
      </div>
    )
  return (
    <div className="empty">
      <div className="empty-title">Start a conversation</div>
      <div className="muted">Answers stream in as they are written. Any turn can be retaken.</div>
    </div>
  )
}
