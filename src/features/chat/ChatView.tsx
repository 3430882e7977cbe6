/** The open session: header (title, model, agent, status), timeline, composer. */
import { useState } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import { useCaptureProgress } from '../checkpoints'
import { ChangesPanel, CheckpointsPanel, ProviderKeysDialog } from './lazy'
import { RetakeSessionLayer, useRetakeStore } from '../retake'
import { ChatComposer } from './ChatComposer'
import { ChatHeader } from './ChatHeader'
import { useChatPanels } from './panels-store'
import { ContextMeter } from './ContextMeter'
import { draftKey } from './drafts-store'
import { PermissionPrompt } from './PermissionPrompt'
import { QuestionPrompt } from './QuestionPrompt'
import { SendNotices } from './SendNotices'
import { SessionErrorBanner } from './SessionErrorBanner'
import { Timeline } from './Timeline'
import { useChatMessages, useChatSession, useDocumentTitle, type ChatSession } from './use-chat-session'
import { useChatTurn, useComposerBox, useStopTurn } from './use-chat-turn'

export function ChatView({ sessionID, onSelect }: { sessionID: string | undefined; onSelect(id: string): void }) {
  const chat = useChatSession(sessionID)
  const { messages, status, busy, model } = chat
  const [keysOpen, setKeysOpen] = useState(false)
  const panel = useChatPanels((s) => s.open)
  const { show: showPanel, close: closePanel } = useChatPanels.getState()
  const shown = useChatMessages(sessionID, chat)
  const box = useComposerBox(draftKey(chat.directory, sessionID), model)
  const { abort, stop } = useStopTurn(sessionID, busy)
  // Send and ↺ are locked while a retake of this session runs.
  const retakeLocked = useRetakeStore((s) => (sessionID ? s.running[sessionID] !== undefined : false))
  useDocumentTitle(chat.session?.title)
  const captureProgress = useCaptureProgress()
  const { commands, turn } = useChatTurn({ sessionID, onSelect, chat, shown, box })

  return (
    <div className={`chat${box.drop.dragging ? ' att-dragging' : ''}`} {...box.drop.handlers}>
      <ChatHeader
        {...headerOf(chat, sessionID)}
        meter={<ContextMeter messages={messages.data ?? []} providers={model.providers.data?.providers ?? []} />}
        onKeys={() => setKeysOpen(true)}
        onCheckpoints={sessionID ? () => showPanel('checkpoints') : undefined}
        onChanges={sessionID ? () => showPanel('changes') : undefined}
      />
      {model.providers.error && <div className="inline-error">{errorMessage(model.providers.error)}</div>}
      <RetakeSessionLayer
        sessionID={sessionID}
        messages={messages.data ?? []}
        model={model.resolved.ref}
        providers={model.providers.data?.providers ?? []}
        busy={busy}
        statusTick={status?.type}
        onChooseModel={model.chooseModel}
        onEdit={box.editInComposer}
      >
        <Timeline
          sessionID={sessionID}
          messages={shown.visible}
          empty={<TimelineEmpty loading={messages.isLoading} error={messages.error} />}
          footer={shown.banner && sessionID ? <SessionErrorBanner error={shown.banner} onDismiss={() => shown.clearSessionError(sessionID)} /> : null}
        />
        {commands.bridge}
      </RetakeSessionLayer>
      <PermissionPrompt sessionID={sessionID} />
      <QuestionPrompt sessionID={sessionID} />
      <SendNotices progress={captureProgress} checkpointFailed={turn.checkpointFailed} onSendWithoutCheckpoint={() => void turn.onSend({ skipCheckpoint: true })} />
      <ChatComposer
        box={box}
        messages={messages.data}
        busy={busy}
        retakeLocked={retakeLocked}
        error={turn.sendError ?? (abort.error ? errorMessage(abort.error) : null)}
        assist={commands.assist}
        options={model.options}
        onSend={() => void turn.onSend()}
        onStop={stop}
        onChooseModel={model.chooseModel}
      />
      {keysOpen && <ProviderKeysDialog onClose={() => setKeysOpen(false)} />}
      {panel === 'changes' && sessionID && <ChangesPanel sessionID={sessionID} busy={busy} onClose={closePanel} />}
      {panel === 'checkpoints' && sessionID && <CheckpointsPanel sessionID={sessionID} busy={busy} onClose={closePanel} />}
    </div>
  )
}

/** The header's props that come from the session and its model (the buttons' handlers are the panel's). */
function headerOf(chat: ChatSession, sessionID: string | undefined) {
  const { session, model } = chat
  return {
    title: session?.title ?? (sessionID ? '' : 'New conversation'),
    providers: { list: model.providers.data?.providers ?? [], loading: model.providers.isLoading },
    agents: { list: model.agents.data ?? [], loading: model.agents.isLoading },
    resolved: model.resolved,
    agent: model.agent,
    onModel: model.chooseModel,
    onAgent: model.chooseAgent,
    status: chat.status,
    streamConnected: chat.streamConnected,
  }
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
