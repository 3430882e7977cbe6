/** The outcome of a restore or an undo in the Checkpoints panel: what was written, kept and what failed. */
import type { RestoreResult } from '../../../shared/ipc-contract'
import { actionVerb, pathOf, resultHeadline } from './checkpoint-logic'

export function RestoreOutcome({ result, verb, projectRoot, onDismiss }: { result: RestoreResult; verb: 'Restore' | 'Undo' | 'Redo'; projectRoot: string; onDismiss(): void }) {
  return (
    <div className={`ckpt-outcome ckpt-outcome-${result.status}`} data-testid="restore-result" data-status={result.status} role="status">
      <div className="ckpt-outcome-head">
        <strong>{resultHeadline(result, verb)}</strong>
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
          ✕
        </button>
      </div>
      <ul className="ckpt-plan-list">
        {result.applied.map((a) => (
          <li key={`a${a.root}${a.path}`} data-testid="result-applied">
            <span className="ckpt-path">{pathOf(a, projectRoot)}</span>
            <span className="muted">{actionVerb(a.kind)}</span>
          </li>
        ))}
        {result.skipped.map((s) => (
          <li key={`s${s.root}${s.path}`} data-testid="result-skipped">
            <span className="ckpt-path">{pathOf(s, projectRoot)}</span>
            <span className="muted">kept: {s.reason}</span>
          </li>
        ))}
        {result.failed.map((f) => (
          <li key={`f${f.root}${f.path}`} className="ckpt-failed" data-testid="result-failed">
            <span className="ckpt-path">{pathOf(f, projectRoot)}</span>
            <span>failed: {f.error}</span>
          </li>
        ))}
      </ul>
      {result.failed.length > 0 && <p className="muted small">Fix the cause (a locked or read-only file) and restore again.</p>}
      {result.warnings.map((w) => (
        <div key={w} className="ckpt-warning">
          {w}
        </div>
      ))}
    </div>
  )
}
