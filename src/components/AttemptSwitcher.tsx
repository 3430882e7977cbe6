/**
 * "Attempt k of N" on a retried turn: the earlier answers (and their errors) are kept locally, with
 * the model each used; arrows step through them. The server's history is not forked.
 */
import { useState } from 'react'
import type { MessageWithParts } from '../api/types'
import type { Attempt } from '../shared/ipc-contract'
import { describeError } from '../lib/message-errors'
import { PartView } from './PartView'

export function AttemptSwitcher({ attempts }: { attempts: Attempt[] }) {
  const total = attempts.length + 1
  // total = the live answer in the timeline.
  const [index, setIndex] = useState(total)
  const shown = index < total ? attempts[index - 1] : undefined
  return (
    <div className="attempts" data-testid="attempt-switcher">
      <span className="attempt-nav">
        <button type="button" className="icon-button" aria-label="Earlier attempt" data-testid="attempt-prev" disabled={index <= 1} onClick={() => setIndex((i) => i - 1)}>
          ‹
        </button>
        <span data-testid="attempt-label">
          attempt {Math.min(index, total)} of {total}
        </span>
        <button type="button" className="icon-button" aria-label="Later attempt" data-testid="attempt-next" disabled={index >= total} onClick={() => setIndex((i) => i + 1)}>
          ›
        </button>
      </span>
      {shown && (
        <div className="attempt-panel" data-testid="attempt-panel">
          <div className="attempt-meta muted">
            {shown.model ? `${shown.model.providerID}/${shown.model.modelID}` : 'unknown model'} · {new Date(shown.at).toLocaleString()}
          </div>
          {(shown.messages as MessageWithParts[]).map((m) => (
            <div key={m.info.id} className="attempt-message">
              {m.parts
                .filter((p) => p.type === 'text' || p.type === 'reasoning' || p.type === 'tool')
                .map((p) => (
                  <PartView key={p.id} part={p} role="assistant" />
                ))}
              {m.info.role === 'assistant' && m.info.error && (
                <div className="error-block" data-testid="attempt-error">
                  <div className="error-title">{describeError(m.info.error).name}</div>
                  <div className="error-message">{describeError(m.info.error).message}</div>
                </div>
              )}
            </div>
          ))}
        </div>
      )}
    </div>
  )
}
