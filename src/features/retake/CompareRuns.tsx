/**
 * The compare view of "Retake with several models": one column per run — the model, how it ended
 * (with the provider's error when it failed), its answer as the timeline shows it (markdown, tool
 * cards) and the files it changed, each with its diff side by side. The last run is the current
 * branch; the others are attempts, and "Keep this one" continues from it.
 */
import { useRef, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { getBridge } from '../../bridge'
import { useScope } from '../../api/scope'
import type { Attempt, ChangeItem, ModelRef } from '../../../shared/ipc-contract'
import type { CompareColumn } from './compare-columns'
import { displayPath } from '../../../shared/display-path'
import { Dialog } from '../../ui/Dialog'
import { describeError } from '../../api/message-errors'
import { checkpointKeys } from '../../api/query-keys'
import { DiffView, ShowChangesToggle } from '../checkpoints'
import { PartView } from '../messages'

/** onKeep: the run's attempt and the model it ran with (the session's model once it is kept). */
export function CompareRuns({
  columns,
  turn,
  onKeep,
  onClose,
}: {
  columns: CompareColumn[]
  /** The retaken turn: the current branch's file changes are its checkpoint's. */
  turn: { sessionID: string; messageID: string }
  onKeep(attempt: Attempt, model: ModelRef): void
  onClose(): void
}) {
  // Focus starts on "Keep the current one": choosing it changes nothing.
  const keepCurrent = useRef<HTMLButtonElement>(null)
  return (
    <Dialog className="dialog compare-runs" label="Compare the answers" testid="compare-runs" onClose={onClose} initialFocus={keepCurrent} closeOnBackdrop={false}>
      <div className="dialog-head">
        <h2>Compare the answers</h2>
      </div>
      <div className="compare-columns">
        {columns.map((c, i) => (
          <section key={i} className="compare-column" data-testid="compare-column" aria-label={`${i + 1}. ${c.modelLabel}`}>
            <h3>
              {i + 1}. {c.modelLabel}
            </h3>
            <Outcome column={c} />
            <div className="compare-answer" data-testid="compare-answer">
              {c.answers.some((m) => m.parts.length > 0) ? (
                c.answers.map((m) => m.parts.map((p) => <PartView key={p.id} part={p} role="assistant" />))
              ) : (
                <span className="muted">no answer</span>
              )}
            </div>
            <FileList column={c} turn={turn} />
            {c.attempt ? (
              <button type="button" className="button button-primary small" data-testid="compare-keep" onClick={() => onKeep(c.attempt!, c.model)}>
                Keep this one
              </button>
            ) : (
              <span className="muted" data-testid="compare-current">
                Current
              </span>
            )}
          </section>
        ))}
      </div>
      <div className="dialog-buttons">
        <button type="button" className="button button-secondary" ref={keepCurrent} onClick={onClose}>
          Keep the current one
        </button>
      </div>
    </Dialog>
  )
}

/** How the run ended; a failure says what the provider answered, as the timeline does. */
function Outcome({ column: c }: { column: CompareColumn }) {
  const error = runError(c)
  if (error) {
    return (
      <div className="compare-outcome compare-error" role="alert" data-testid="compare-error">
        {error}
      </div>
    )
  }
  return <div className="muted compare-outcome">{c.answers.length ? 'answered' : 'no answer'}</div>
}

/** The run's error in words: it did not run at all, or its answer ended with the provider's error. */
export function runError(c: Pick<CompareColumn, 'failed' | 'answers'>): string | null {
  if (c.failed) return `Did not run: ${c.failed}`
  const failed = c.answers.find((m) => m.info.role === 'assistant' && m.info.error)
  if (!failed || failed.info.role !== 'assistant' || !failed.info.error) return null
  const e = describeError(failed.info.error)
  if (e.aborted) return 'Stopped before it finished.'
  return `Ended with an error: ${e.message}${e.statusCode ? ` (${e.statusCode})` : ''}`
}

function FileList({ column, turn }: { column: CompareColumn; turn: { sessionID: string; messageID: string } }) {
  const scope = useScope()
  const restoreId = column.attempt?.restoreId
  // An attempt's files: what undoing the restore that replaced it would bring back (with diffs).
  const ofAttempt = useQuery({
    queryKey: checkpointKeys.restoreChanges(scope.directory, restoreId ?? ''),
    enabled: !!restoreId,
    queryFn: () => getBridge().invoke('checkpoints.restoreChanges', { directory: scope.directory, restoreId: restoreId! }),
  })
  // The current branch's: its turn's changes with their diffs (the list the column has leaves them out).
  const current = !column.attempt && !column.failed
  const ofTurn = useQuery({
    queryKey: checkpointKeys.changes(scope.directory, turn.sessionID, turn.messageID),
    enabled: current,
    queryFn: () => getBridge().invoke('checkpoints.changes', { directory: scope.directory, ...turn }),
  })
  const changes = column.attempt ? ofAttempt.data : (ofTurn.data ?? column.changes)
  if (column.attempt && !restoreId) return <div className="muted compare-files">files: not recorded</div>
  if (!changes) return <div className="muted compare-files">files…</div>
  return (
    <ul className="compare-files" data-testid="compare-files">
      {changes.length === 0 && <li className="muted">no file changed</li>}
      {changes.map((ch) => (
        <FileRow key={`${ch.root}/${ch.path}`} change={ch} />
      ))}
    </ul>
  )
}

function FileRow({ change: ch }: { change: ChangeItem }) {
  const [open, setOpen] = useState(false)
  const name = displayPath(ch.path)
  return (
    <li>
      <span className={`change-kind change-${ch.change}`}>{ch.change}</span> {name}
      {(ch.added > 0 || ch.removed > 0) && (
        <span className="muted">
          {' '}
          +{ch.added} −{ch.removed}
        </span>
      )}
      {ch.diff !== undefined && <ShowChangesToggle name={name} open={open} onToggle={() => setOpen(!open)} />}
      {open && ch.diff !== undefined && <DiffView diff={ch.diff} path={ch.path} layout="split" />}
    </li>
  )
}
