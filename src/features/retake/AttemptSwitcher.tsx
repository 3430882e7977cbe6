/**
 * "Attempt k of N" on a retaken turn: each earlier attempt is kept locally as a whole branch — the
 * question as it was asked (an edit changes it), its answers and every later turn with theirs —
 * with the model it used and how it ended; arrows step through them, read-only. "Continue from this
 * attempt" makes the one shown current again (the host's continue-attempt.ts, through the restore
 * sheet); the branch it replaces becomes an attempt in its turn.
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { getBridge } from '../../bridge'
import { useScope } from '../../api/scope'
import type { MessageWithParts } from '../../api/types'
import type { Attempt } from '../../../shared/ipc-contract'
import { describeError } from '../../api/message-errors'
import { PartView } from '../messages'
import { typedText } from '../../api/message-text'
import { checkpointKeys } from '../../api/query-keys'

export function AttemptSwitcher({
  attempts,
  current,
  onContinue,
  locked,
}: {
  attempts: Attempt[]
  current?: MessageWithParts
  onContinue?(attempt: Attempt): void
  /** A retake or switch of this session is running. */
  locked?: boolean
}) {
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
      {shown && onContinue && (
        <button type="button" className="text-button" data-testid="attempt-continue" disabled={locked} onClick={() => onContinue(shown)}>
          Continue from this attempt
        </button>
      )}
      {shown && <AttemptPanel attempt={shown} current={current} />}
    </div>
  )
}

function AttemptPanel({ attempt, current }: { attempt: Attempt; current?: MessageWithParts }) {
  const messages = attempt.messages as MessageWithParts[]
  const asked = attempt.user ? typedText(attempt.user as MessageWithParts) : null
  const laterTurns = messages.filter((m) => m.info.role === 'user').length
  const failed = messages.some((m) => m.info.role === 'assistant' && m.info.error)
  return (
    <div className="attempt-panel" data-testid="attempt-panel">
      <div className="attempt-meta muted" data-testid="attempt-meta">
        {attempt.model ? `${attempt.model.providerID}/${attempt.model.modelID}` : 'unknown model'} · {new Date(attempt.at).toLocaleString()} ·{' '}
        {failed ? 'ended with an error' : 'answered'}
        {laterTurns > 0 && ` · ${laterTurns} later turn${laterTurns === 1 ? '' : 's'}`}
        {attempt.restoreId && <AttemptFiles restoreId={attempt.restoreId} />}
      </div>
      {asked !== null && current && asked !== typedText(current) && (
        <div className="attempt-message attempt-question" data-testid="attempt-question">
          <span className="muted">Asked: </span>
          {asked}
        </div>
      )}
      {messages.map((m) =>
        m.info.role === 'user' ? (
          <div key={m.info.id} className="attempt-message attempt-user" data-testid="attempt-user">
            <span className="muted">You: </span>
            {typedText(m)}
          </div>
        ) : (
          <div key={m.info.id} className="attempt-message">
            {m.parts
              .filter((p) => p.type === 'text' || p.type === 'reasoning' || p.type === 'tool')
              .map((p) => (
                <PartView key={p.id} part={p} role="assistant" />
              ))}
            {m.info.error && (
              <div className="error-block" data-testid="attempt-error">
                <div className="error-title">{describeError(m.info.error).name}</div>
                <div className="error-message">{describeError(m.info.error).message}</div>
              </div>
            )}
          </div>
        ),
      )}
    </div>
  )
}

/** " · N files changed": what the attempt did on disk (what continuing from it brings back). */
function AttemptFiles({ restoreId }: { restoreId: string }) {
  const scope = useScope()
  const q = useQuery({
    queryKey: checkpointKeys.restoreChanges(scope.directory, restoreId),
    queryFn: () => getBridge().invoke('checkpoints.restoreChanges', { directory: scope.directory, restoreId }),
  })
  if (!q.data) return null
  const n = q.data.length
  return (
    <span data-testid="attempt-files" title={q.data.map((c) => c.path).join('\n')}>
      {' '}
      · {n} file{n === 1 ? '' : 's'} changed
    </span>
  )
}
