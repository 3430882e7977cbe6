/**
 * What "Restore back to here" will do, before anything is written: files restored or brought back,
 * files removed, and conflicts (edited since the turn) with a choice per file — keep mine by default,
 * so nothing the user changed is overwritten unless they say so.
 */
import { useState } from 'react'
import type { RestorePlan, RestoreResult } from '../../../shared/ipc-contract'
import { actionVerb, groupPlan, overwriteIds, pathOf, planIsEmpty, resultHeadline, type ConflictChoice, type PlanAction } from './checkpoint-logic'

function ActionList({ title, items, projectRoot, testId }: { title: string; items: PlanAction[]; projectRoot: string; testId: string }) {
  if (items.length === 0) return null
  return (
    <section className="ckpt-plan-group" data-testid={testId}>
      <h4>
        {title} <span className="muted">({items.length})</span>
      </h4>
      <ul className="ckpt-plan-list">
        {items.map((a) => (
          <li key={a.id} data-testid="plan-action" data-kind={a.kind}>
            <span className="ckpt-path">{pathOf(a, projectRoot)}</span>
            <span className="muted">{a.kind === 'not-checkpointed' || a.kind === 'not-this-turn' ? (a.reason ?? 'left as it is') : actionVerb(a.kind)}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function RestoreConfirm({
  plan,
  label,
  projectRoot,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  plan: RestorePlan
  label: string
  projectRoot: string
  pending: boolean
  error: string | null
  onConfirm(overwrite: string[]): void
  onCancel(): void
}) {
  const g = groupPlan(plan)
  const [choices, setChoices] = useState<Record<string, ConflictChoice>>({})
  const empty = planIsEmpty(g)
  return (
    <div className="ckpt-confirm" data-testid="restore-confirm">
      <h3>Restore back to “{label}”</h3>
      <p className="muted small">
        {plan.turns.length === 1 ? 'Undoes what this turn did on disk.' : `Undoes what these ${plan.turns.length} turns did on disk.`} The conversation is not changed.
      </p>
      {empty && <p data-testid="plan-empty">Nothing to restore: the files already are as they were before this turn.</p>}
      <ActionList title="Restored" items={g.restored} projectRoot={projectRoot} testId="plan-restored" />
      <ActionList
        title={plan.turns.length === 1 ? 'Removed (created by the turn)' : 'Removed (created by these turns)'}
        items={g.removed}
        projectRoot={projectRoot}
        testId="plan-removed"
      />
      {g.conflicts.length > 0 && <ConflictList conflicts={g.conflicts} projectRoot={projectRoot} choices={choices} onChoices={setChoices} />}
      <ActionList title="Left as they are" items={g.untouched} projectRoot={projectRoot} testId="plan-untouched" />
      {plan.warnings.map((w) => (
        <div key={w} className="ckpt-warning">
          {w}
        </div>
      ))}
      {error && (
        <div className="inline-error" role="alert">
          {error}
        </div>
      )}
      <ConfirmButtons pending={pending} disabled={pending || empty} onCancel={onCancel} onConfirm={() => onConfirm(overwriteIds(g.conflicts, choices))} />
    </div>
  )
}

function ConfirmButtons({ pending, disabled, onCancel, onConfirm }: { pending: boolean; disabled: boolean; onCancel(): void; onConfirm(): void }) {
  return (
    <div className="ckpt-actions">
      <button type="button" className="button button-secondary" data-testid="cancel-restore" onClick={onCancel}>
        Cancel
      </button>
      <button type="button" className="button button-primary" data-testid="confirm-restore" disabled={disabled} onClick={onConfirm}>
        {pending ? 'Restoring…' : 'Restore files'}
      </button>
    </div>
  )
}

/** Files edited since the turn, each with its own Keep mine / Take checkpoint choice (keep unless chosen). */
function ConflictList({
  conflicts,
  projectRoot,
  choices,
  onChoices,
}: {
  conflicts: PlanAction[]
  projectRoot: string
  choices: Record<string, ConflictChoice>
  onChoices(next: Record<string, ConflictChoice>): void
}) {
  return (
    <section className="ckpt-plan-group" data-testid="plan-conflicts">
      <h4>
        Changed since the turn <span className="muted">({conflicts.length})</span>
      </h4>
      <ul className="ckpt-plan-list">
        {conflicts.map((c) => (
          <li key={c.id} className="ckpt-conflict" data-testid="plan-conflict">
            <div>
              <span className="ckpt-path">{pathOf(c, projectRoot)}</span>
              {c.reason && <div className="muted small">{c.reason}</div>}
            </div>
            <div className="ckpt-choice" role="radiogroup" aria-label={`Choice for ${pathOf(c, projectRoot)}`}>
              {(['keep', 'take'] as const).map((v) => (
                <label key={v}>
                  <input
                    type="radio"
                    name={`choice-${c.id}`}
                    data-testid={`conflict-${v}`}
                    checked={(choices[c.id] ?? 'keep') === v}
                    onChange={() => onChoices({ ...choices, [c.id]: v })}
                  />
                  {v === 'keep' ? 'Keep mine' : 'Take checkpoint'}
                </label>
              ))}
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The outcome of a restore or an undo: what was written, kept and what failed. */
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
