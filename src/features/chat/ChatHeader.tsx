/** The open session's header: its title, the model and agent the next prompt goes with, the context and cost, Keys, Checkpoints, status. */
import type { ReactNode } from 'react'
import type { ModelRef } from '../../../shared/ipc-contract'
import type { Provider, SessionStatus } from '../../api/types'
import { ModelPicker, type ResolvedModel } from '../models'
import { AgentPicker } from './AgentPicker'
import { StatusLine } from './StatusLine'

type Agents = Parameters<typeof AgentPicker>[0]['agents']

export function ChatHeader(p: {
  title: string
  providers: { list: Provider[]; loading: boolean }
  agents: { list: Agents; loading: boolean }
  resolved: ResolvedModel
  agent: string
  onModel(ref: ModelRef): void
  onAgent(name: string): void
  onKeys(): void
  /** Absent for a conversation not started yet (nothing to checkpoint). */
  onCheckpoints?: () => void
  /** Absent likewise: the files the session's turns changed, with their diffs. */
  onChanges?: () => void
  /** How full the context is and the cost (ContextMeter). */
  meter?: ReactNode
  status: SessionStatus | undefined
  streamConnected: boolean
}) {
  return (
    <header className="chat-header">
      <div className="chat-title" data-testid="session-title">
        {p.title}
      </div>
      <div className="chat-controls">
        {p.meter}
        <ModelPicker providers={p.providers.list} resolved={p.resolved} loading={p.providers.loading} onChange={p.onModel} />
        <AgentPicker agents={p.agents.list} value={p.agent} loading={p.agents.loading} onChange={p.onAgent} />
        <button type="button" className="button button-secondary small" data-testid="open-keys" onClick={p.onKeys}>
          Keys
        </button>
        {p.onChanges && (
          <button type="button" className="button button-secondary small" data-testid="open-changes" onClick={p.onChanges}>
            Changes
          </button>
        )}
        {p.onCheckpoints && (
          <button type="button" className="button button-secondary small" data-testid="open-checkpoints" onClick={p.onCheckpoints}>
            Checkpoints
          </button>
        )}
      </div>
      <StatusLine status={p.status} streamConnected={p.streamConnected} />
    </header>
  )
}
