/** The open session: header (title, model, agent, status), timeline, composer. */
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { ModelRef } from '../../../shared/ipc-contract'
import { useAbort, useCreateSession, useSendPrompt } from '../../api/mutations'
import { useAgents, useConfigProviders, useMessages, useServerConfig, useSessions, useStatusMap } from '../../api/queries'
import { useScope } from '../../api/scope'
import { errorMessage } from '../../../shared/unwrap'
import { bannerError } from './message-errors'
import { modelForPrompt, modelKey, modelOptions, resolveModel, serverDefaultModel } from '../models/model-choice'
import { attachmentInfoOf, buildPromptParts, sendBlocker } from '../attachments/attachments'
import { readFiles, useAttachmentNotices, useAttachmentsStore, useComposerAttachments } from '../attachments/attachments-store'
import { AttachButton, ComposerAttachments } from '../attachments/ComposerAttachments'
import { isBusy } from './status-line'
import { useSettled } from '../../ui/use-settled'
import { visibleMessages } from './visible-messages'
import { draftKey, useDraftsStore } from './drafts-store'
import { choiceKey, useModelStore } from '../models/model-store'
import { useSessionErrors } from './session-errors-store'
import { useUiStore } from '../../ui/ui-store'
import { AgentPicker } from './AgentPicker'
import { Composer } from './Composer'
import { useEditRequest } from './edit-request-store'
import { ModelPicker } from '../models/ModelPicker'
import { ProviderKeysDialog } from '../lazy'
import { SessionErrorBanner } from './SessionErrorBanner'
import { StatusLine } from './StatusLine'
import { Timeline } from './Timeline'
import { RetrySessionLayer } from '../retake/RetrySessionLayer'
import { useRetryStore } from '../retake/retry-store'
import { CheckpointsPanel } from '../lazy'
import { SendNotices } from './SendNotices'
import { PermissionPrompt } from './PermissionPrompt'
import { QuestionPrompt } from './QuestionPrompt'
import { useCaptureProgress } from '../checkpoints/use-checkpoints'
import { usePendingSendGuard } from './use-pending-send'
import { usePendingSendStore } from './pending-send-store'
import type { PendingSend } from './pending-send'
import type { PendingAttachment } from '../attachments/attachments'
import type { MessageError } from '../../api/types'
import { describeError } from './message-errors'
import { ascendingId } from '../../../shared/ids'
import { isCheckpointFailure } from '../../api/mutations'
import { useEscapeStops } from './use-escape-stops'
import { useComposerCommands } from './use-composer-commands'

export function ChatView({ sessionID, onSelect }: { sessionID: string | undefined; onSelect(id: string): void }) {
  const { directory } = useScope()
  const sessions = useSessions()
  const session = sessions.data?.find((s) => s.id === sessionID)
  const messages = useMessages(sessionID)
  const statusMap = useStatusMap()
  const status = sessionID ? statusMap.data?.[sessionID] : undefined
  const streamConnected = useUiStore((s) => s.stream !== 'reconnecting')
  const providers = useConfigProviders()
  const config = useServerConfig()
  const agents = useAgents()
  const [keysOpen, setKeysOpen] = useState(false)
  const [checkpointsOpen, setCheckpointsOpen] = useState(false)

  const ckey = choiceKey(directory, sessionID)
  const chosenModel = useModelStore((s) => s.models[ckey])
  const chosenAgent = useModelStore((s) => s.agents[ckey])
  const { setModel, setAgent, carryOver } = useModelStore.getState()
  const serverDefault = serverDefaultModel(config.data?.model, providers.data?.providers ?? [], providers.data?.default ?? {})
  const resolved = resolveModel(chosenModel, session, serverDefault)
  const agent = chosenAgent ?? session?.agent ?? config.data?.default_agent ?? 'build'

  const visible = useMemo(() => visibleMessages(messages.data ?? [], session?.revert), [messages.data, session?.revert])
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
  const options = useMemo(() => modelOptions(providers.data?.providers ?? []), [providers.data])
  // What the selected model takes, from the server's provider list (undefined: not known, not judged).
  const modelInfo = attachmentInfoOf(options.find((o) => resolved.ref && o.key === modelKey(resolved.ref))?.capabilities)
  const blocked = sendBlocker(attachments, modelInfo)
  const [dragging, setDragging] = useState(false)
  const addFiles = useCallback((files: File[]) => void readFiles(files).then((list) => useAttachmentsStore.getState().add(dkey, list)), [dkey])
  const create = useCreateSession()
  const send = useSendPrompt()
  const abort = useAbort()
  const [sendError, setSendError] = useState<string | null>(null)
  const busy = isBusy(status)
  const { mutate: abortTurn } = abort
  const stop = useCallback(() => {
    if (sessionID) abortTurn(sessionID)
  }, [sessionID, abortTurn])
  useEscapeStops(busy && !!sessionID, stop)
  // Send and ↺ are locked while a retry of this session runs.
  const retryLocked = useRetryStore((s) => (sessionID ? s.running[sessionID] !== undefined : false))
  const chooseModel = useCallback((ref: ModelRef) => setModel(ckey, ref), [setModel, ckey])
  const editInComposer = useCallback(
    (text: string, files: PendingAttachment[]) => {
      useDraftsStore.getState().giveBack(dkey, text)
      if (files.length) useAttachmentsStore.getState().restore(dkey, files)
    },
    [dkey],
  )
  // Files dropped beside the chat (sidebar, header) must not make the window open the file instead.
  useEffect(() => {
    const guard = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault()
    }
    window.addEventListener('dragover', guard)
    window.addEventListener('drop', guard)
    return () => {
      window.removeEventListener('dragover', guard)
      window.removeEventListener('drop', guard)
    }
  }, [])
  const title = session?.title
  useEffect(() => {
    document.title = title ? `${title} — Retake` : 'Retake'
  }, [title])

  const [checkpointFailed, setCheckpointFailed] = useState(false)
  const captureProgress = useCaptureProgress()
  const messageIDs = useMemo(() => (messages.data ?? []).map((m) => m.info.id), [messages.data])
  // A message the server never stored (the turn failed before writing it) comes back to the composer.
  const onLost = useCallback(
    (p: PendingSend<PendingAttachment>, error: MessageError | undefined) => {
      const key = draftKey(directory, p.sessionID)
      useDraftsStore.getState().giveBack(key, p.text)
      if (p.attachments.length) useAttachmentsStore.getState().restore(key, p.attachments)
      setSendError(`Your message did not reach the conversation${error ? ` (${describeError(error).message})` : ''}. It is back in the composer.`)
    },
    [directory],
  )
  usePendingSendGuard({ sessionID, messageIDs, status, sessionError, onLost })
  const commands = useComposerCommands({ sessionID, messages: visible, options, draft, setDraft: useCallback((t: string) => setDraft(dkey, t), [setDraft, dkey]) })

  async function onSend(opts: { skipCheckpoint?: boolean } = {}) {
    // A slash command runs here and is never sent; `//…` sends the text with one slash.
    const text = commands.intercept(draft)
    if (text === null) return
    let sid = sessionID
    let parts
    try {
      // Built before anything is cleared: a file over the inline limit is reported, nothing is lost.
      parts = buildPromptParts(text, attachments)
    } catch (err) {
      setSendError(errorMessage(err))
      return
    }
    const sent = attachStore.take(dkey)
    setDraft(dkey, '')
    setSendError(null)
    setCheckpointFailed(false)
    const messageID = ascendingId('msg')
    try {
      if (!sid) {
        const created = await create.mutateAsync()
        sid = created.id
        carryOver(choiceKey(directory, undefined), choiceKey(directory, sid))
        onSelect(sid)
      }
      clearSessionError(sid)
      usePendingSendStore.getState().set({ sessionID: sid, messageID, text, attachments: sent, sentAt: Date.now(), queued: busy })
      await send.mutateAsync({
        sessionID: sid,
        messageID,
        skipCheckpoint: opts.skipCheckpoint,
        text,
        parts,
        model: modelForPrompt(resolved),
        agent: chosenAgent ?? session?.agent,
      })
    } catch (err) {
      if (sid) usePendingSendStore.getState().clear(sid, messageID)
      setCheckpointFailed(isCheckpointFailure(err))
      // The draft survives a failed send, ahead of anything the user typed meanwhile.
      const key = draftKey(directory, sid)
      useDraftsStore.getState().giveBack(key, text)
      // The attachments come back too, to the composer the user now sees.
      if (sent.length) attachStore.restore(key, sent)
      setSendError(errorMessage(err))
    }
  }

  return (
    <div
      className={`chat${dragging ? ' att-dragging' : ''}`}
      // Files dropped anywhere on the chat are attached (text typed so far is untouched).
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return
        e.preventDefault()
        e.dataTransfer.dropEffect = 'copy'
        if (!dragging) setDragging(true)
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target || !e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false)
      }}
      onDrop={(e) => {
        setDragging(false)
        const files = Array.from(e.dataTransfer.files)
        if (files.length === 0) return
        e.preventDefault()
        addFiles(files)
      }}
    >
      <header className="chat-header">
        <div className="chat-title" data-testid="session-title">
          {session?.title ?? (sessionID ? '' : 'New conversation')}
        </div>
        <div className="chat-controls">
          <ModelPicker providers={providers.data?.providers ?? []} resolved={resolved} loading={providers.isLoading} onChange={(ref) => setModel(ckey, ref)} />
          <AgentPicker agents={agents.data ?? []} value={agent} loading={agents.isLoading} onChange={(a) => setAgent(ckey, a)} />
          <button type="button" className="button button-secondary small" data-testid="open-keys" onClick={() => setKeysOpen(true)}>
            Keys
          </button>
          {sessionID && (
            <button type="button" className="button button-secondary small" data-testid="open-checkpoints" onClick={() => setCheckpointsOpen(true)}>
              Checkpoints
            </button>
          )}
        </div>
        <StatusLine status={status} streamConnected={streamConnected} />
      </header>
      {providers.error && <div className="inline-error">{errorMessage(providers.error)}</div>}
      <RetrySessionLayer
        sessionID={sessionID}
        messages={messages.data ?? []}
        model={resolved.ref}
        providers={providers.data?.providers ?? []}
        busy={busy}
        statusTick={status?.type}
        onChooseModel={chooseModel}
        onEdit={editInComposer}
      >
        <Timeline
          sessionID={sessionID}
          messages={visible}
          empty={
            messages.isLoading ? (
              <div className="empty muted">Loading messages…</div>
            ) : messages.error ? (
              <div className="inline-error" role="alert">
                {errorMessage(messages.error)}
              </div>
            ) : (
              <div className="empty">
                <div className="empty-title">Start a conversation</div>
                <div className="muted">Answers stream in as they are written. Any turn can be retaken.</div>
              </div>
            )
          }
          footer={banner && sessionID ? <SessionErrorBanner error={banner} onDismiss={() => clearSessionError(sessionID)} /> : null}
        />
        {commands.bridge}
      </RetrySessionLayer>
      <PermissionPrompt sessionID={sessionID} />
      <QuestionPrompt sessionID={sessionID} />
      <SendNotices progress={captureProgress} checkpointFailed={checkpointFailed} onSendWithoutCheckpoint={() => void onSend({ skipCheckpoint: true })} />
      <Composer
        value={draft}
        onChange={(t) => setDraft(dkey, t)}
        onSend={() => void onSend()}
        onStop={stop}
        busy={busy}
        disabled={retryLocked}
        error={sendError ?? (abort.error ? errorMessage(abort.error) : null)}
        hasAttachments={attachments.length > 0}
        blocked={blocked}
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
            options={options}
            onRemove={(id) => attachStore.remove(dkey, id)}
            onDismissNotices={() => attachStore.dismissNotices(dkey)}
            onChooseModel={chooseModel}
          />
        }
      />
      {keysOpen && <ProviderKeysDialog onClose={() => setKeysOpen(false)} />}
      {checkpointsOpen && sessionID && <CheckpointsPanel sessionID={sessionID} busy={busy} onClose={() => setCheckpointsOpen(false)} />}
    </div>
  )
}
