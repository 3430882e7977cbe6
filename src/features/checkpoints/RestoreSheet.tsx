/**
 * The restore sheet a ↺ opens when the turn (or a later one) changed files: what will be put back,
 * what the turns created and will be removed, and every file changed since (a conflict) with keep
 * mine (default) / take the checkpoint / view diff. Files and conversation (default), conversation
 * only, or files only.
 */
import { useEffect, useState } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import { usePlanRestore } from './use-checkpoints'
import { groupPlan, overwriteIds, type ConflictChoice } from './checkpoint-logic'
import type { RestorePlan } from '../../../shared/ipc-contract'
import { DiffLines } from './TurnChanges'
import { useEscape } from '../../ui/use-escape'
import { displayFilePath, displayPath } from '../../../shared/display-path'
import { useOptionalDirectory } from '../../api/scope'

export type RestoreMode = 'both' | 'conversation' | 'files'

export interface RestoreDecision {
  mode: RestoreMode
  planId: string
  overwrite: string[]
  /** Files of the plan left as they are (the user's per-file choice; conflicts are kept by default). */
  keep: string[]
}

export function RestoreSheet(props: {
  sessionID: string
  messageID: string
  modelLabel: string
  laterTurns: number
  /** "continue": the sheet of "continue from this attempt" (the current branch's files roll back). */
  purpose?: 'retake' | 'continue'
  onCancel(): void
  onConfirm(decision: RestoreDecision): void
}) {
  const planner = usePlanRestore()
  const directory = useOptionalDirectory()
  const [plan, setPlan] = useState<RestorePlan | null>(null)
  const [mode, setMode] = useState<RestoreMode>('both')
  const [choices, setChoices] = useState<Record<string, ConflictChoice>>({})
  // Every file the turn changed can be left as it is, not only the ones changed since.
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set())
  const [diffOf, setDiffOf] = useState<string | null>(null)
  const { mutate } = planner
  useEscape(props.onCancel)
  const continuing = props.purpose === 'continue'

  useEffect(() => {
    mutate({ backTo: { sessionID: props.sessionID, messageID: props.messageID } }, { onSuccess: setPlan })
  }, [mutate, props.sessionID, props.messageID])

  const groups = plan ? groupPlan(plan) : null
  const confirm = (m: RestoreMode) => plan && props.onConfirm({ mode: m, planId: plan.planId, overwrite: groups ? overwriteIds(groups.conflicts, choices) : [], keep: [...kept] })
  const fileChoice = (a: RestorePlan['actions'][number], rollBack: string) => (
    <select
      aria-label={`What to do with ${displayPath(a.path)}`}
      data-testid="file-choice"
      value={kept.has(a.id) ? 'keep' : 'roll-back'}
      onChange={(e) =>
        setKept((k) => {
          const next = new Set(k)
          if (e.target.value === 'keep') next.add(a.id)
          else next.delete(a.id)
          return next
        })
      }
    >
      <option value="roll-back">{rollBack}</option>
      <option value="keep">Keep as it is now</option>
    </select>
  )
  const row = (a: RestorePlan['actions'][number], extra?: React.ReactNode) => (
    <li key={a.id} data-kind={a.kind}>
      <span className="change-path" title={`${a.root}/${displayPath(a.path)}`}>
        {displayFilePath(a, directory)}
      </span>
      {extra}
    </li>
  )

  return (
    <div className="dialog-backdrop" role="presentation">
      <div className="dialog restore-sheet" role="dialog" aria-modal="true" aria-label={continuing ? 'Continue from this attempt' : 'Retake this turn'} data-testid="restore-sheet">
        <div className="dialog-head">
          <h2>{continuing ? 'Continue from this attempt' : `Retake with ${props.modelLabel}`}</h2>
        </div>
        {continuing && (
          <p className="muted" data-testid="continue-explainer">
            The current answers{props.laterTurns > 0 ? ` and the ${props.laterTurns} later turn${props.laterTurns === 1 ? '' : 's'}` : ''} are kept as an attempt you can come back
            to. Their file changes below are rolled back, then the files come back as the attempt left them.
          </p>
        )}
        {!continuing && props.laterTurns > 0 && (
          <p className="muted">
            The {props.laterTurns} later turn{props.laterTurns === 1 ? '' : 's'} will be discarded (kept in the attempt history).
          </p>
        )}
        {planner.isPending && <p className="muted">Working out what to restore…</p>}
        {planner.error && (
          <p className="inline-error" role="alert">
            Could not plan the file restore: {errorMessage(planner.error)}. You can still retake the conversation only.
          </p>
        )}
        {groups && (
          <div className="restore-groups">
            {groups.restored.length > 0 && (
              <section data-testid="restore-put-back">
                <h3>Put back ({groups.restored.length})</h3>
                <ul>{groups.restored.map((a) => row(a, fileChoice(a, a.kind === 'recreate' ? 'Bring back' : 'Put back')))}</ul>
              </section>
            )}
            {groups.removed.length > 0 && (
              <section data-testid="restore-remove">
                <h3>Created by the turn, will be removed ({groups.removed.length})</h3>
                <ul>{groups.removed.map((a) => row(a, fileChoice(a, 'Remove')))}</ul>
              </section>
            )}
            {groups.conflicts.length > 0 && (
              <section data-testid="restore-conflicts">
                <h3>Changed since the turn, or not only by it ({groups.conflicts.length})</h3>
                <p className="muted">These files were edited after the turn, or while another session was working on this folder. They are kept unless you choose otherwise.</p>
                <ul>
                  {groups.conflicts.map((a) =>
                    row(
                      a,
                      <>
                        {a.reason && (
                          <span className="change-reason" data-testid="conflict-reason">
                            {a.reason}
                          </span>
                        )}
                        <select
                          aria-label={`What to do with ${displayPath(a.path)}`}
                          data-testid="conflict-choice"
                          value={choices[a.id] ?? 'keep'}
                          onChange={(e) => setChoices((c) => ({ ...c, [a.id]: e.target.value as ConflictChoice }))}
                        >
                          <option value="keep">Keep mine</option>
                          <option value="take">Take the checkpoint</option>
                        </select>
                        {a.diff && (
                          <button type="button" className="text-button" onClick={() => setDiffOf(diffOf === a.id ? null : a.id)}>
                            {diffOf === a.id ? 'hide diff' : 'view diff'}
                          </button>
                        )}
                        {diffOf === a.id && a.diff && (
                          <pre className="diff-view">
                            <DiffLines text={a.diff} />
                          </pre>
                        )}
                      </>,
                    ),
                  )}
                </ul>
              </section>
            )}
            {groups.untouched.length > 0 && (
              <section data-testid="restore-left">
                <h3>Left as they are ({groups.untouched.length})</h3>
                <ul>{groups.untouched.map((a) => row(a, <span className="muted">{a.reason ?? 'over the size limit'}</span>))}</ul>
              </section>
            )}
            {plan!.warnings.map((w) => (
              <p key={w} className="muted">
                {w}
              </p>
            ))}
          </div>
        )}
        <fieldset className="restore-mode">
          <legend>Roll back</legend>
          {(
            [
              ['both', 'Files and conversation'],
              ['conversation', continuing ? 'Conversation only (files stay as they are now)' : 'Conversation only (files stay as they are)'],
              ['files', 'Files only (the conversation stays)'],
            ] as const
          )
            .filter(([value]) => !continuing || value !== 'files')
            .map(([value, label]) => (
              <label key={value}>
                <input type="radio" name="restore-mode" value={value} checked={mode === value} onChange={() => setMode(value)} disabled={value !== 'conversation' && !plan} />
                {label}
              </label>
            ))}
        </fieldset>
        <div className="dialog-buttons">
          <button type="button" className="button button-secondary" onClick={props.onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            data-testid="restore-confirm"
            disabled={mode !== 'conversation' && !plan}
            onClick={() => (mode === 'conversation' ? props.onConfirm({ mode, planId: '', overwrite: [], keep: [] }) : confirm(mode))}
          >
            {continuing ? 'Continue from this attempt' : mode === 'files' ? 'Restore files' : 'Retake'}
          </button>
        </div>
      </div>
    </div>
  )
}
