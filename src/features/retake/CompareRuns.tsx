/**
 * The compare view of "Retry with several models": one column per run — the model, how it ended,
 * its answer and the files it changed — side by side. The last run is the current branch; the
 * others are attempts, and "Keep this one" continues from it (the restore sheet of a continue).
 */
import { useQuery } from '@tanstack/react-query'
import { useRef } from 'react'
import { getBridge } from '../../bridge'
import { useScope } from '../../api/scope'
import type { MessageWithParts } from '../../api/types'
import type { Attempt, ModelRef } from '../../../shared/ipc-contract'
import type { CompareColumn } from './compare-columns'
import { displayPath } from '../../../shared/display-path'
import { Dialog } from '../../ui/Dialog'
import { checkpointKeys } from '../../api/query-keys'

/** onKeep: the run's attempt and the model it ran with (the session's model once it is kept). */
export function CompareRuns({ columns, onKeep, onClose }: { columns: CompareColumn[]; onKeep(attempt: Attempt, model: ModelRef): void; onClose(): void }) {
  // Focus starts on "Keep the current one": choosing it changes nothing.
  const keepCurrent = useRef<HTMLButtonElement>(null)
  return (
    <Dialog className="dialog compare-runs" label="Compare the answers" testid="compare-runs" onClose={onClose} initialFocus={keepCurrent} closeOnBackdrop={false}>
      <div className="dialog-head">
        <h2>Compare the answers</h2>
      </div>
      <div className="compare-columns">
        {columns.map((c, i) => (
          <section key={i} className="compare-column" data-testid="compare-column">
            <h3>
              {i + 1}. {c.modelLabel}
            </h3>
            <div className="muted compare-outcome">{c.failed ? `did not run: ${c.failed}` : outcomeOf(c.answers)}</div>
            <div className="compare-answer" data-testid="compare-answer">
              {c.answers.map((m) => answerText(m)).join('\n\n') || <span className="muted">no answer</span>}
            </div>
            <FileList column={c} />
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
        <button ref={keepCurrent} type="button" className="button button-secondary" onClick={onClose}>
          Keep the current one
        </button>
      </div>
    </Dialog>
  )
}

function FileList({ column }: { column: CompareColumn }) {
  const scope = useScope()
  const restoreId = column.attempt?.restoreId
  // An attempt's files: what undoing the restore that replaced it would bring back.
  const fetched = useQuery({
    queryKey: checkpointKeys.restoreChanges(scope.directory, restoreId ?? ''),
    enabled: !!restoreId,
    queryFn: () => getBridge().invoke('checkpoints.restoreChanges', { directory: scope.directory, restoreId: restoreId! }),
  })
  const changes = column.attempt ? fetched.data : column.changes
  if (column.attempt && !restoreId) return <div className="muted compare-files">files: not recorded</div>
  if (!changes) return <div className="muted compare-files">files…</div>
  return (
    <ul className="compare-files" data-testid="compare-files">
      {changes.length === 0 && <li className="muted">no file changed</li>}
      {changes.map((ch) => (
        <li key={`${ch.root}/${ch.path}`}>
          <span className={`change-kind change-${ch.change}`}>{ch.change}</span> {displayPath(ch.path)}
          {(ch.added > 0 || ch.removed > 0) && (
            <span className="muted">
              {' '}
              +{ch.added} −{ch.removed}
            </span>
          )}
        </li>
      ))}
    </ul>
  )
}

function answerText(m: MessageWithParts): string {
  return m.parts.flatMap((p) => (p.type === 'text' && !p.synthetic ? [p.text] : p.type === 'tool' ? [`[${p.tool}]`] : [])).join('\n')
}

function outcomeOf(answers: MessageWithParts[]): string {
  const failed = answers.find((m) => m.info.role === 'assistant' && m.info.error)
  return failed ? 'ended with an error' : answers.length ? 'answered' : 'no answer'
}
