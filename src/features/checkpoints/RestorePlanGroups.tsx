/**
 * The restore sheet's plan, grouped: what is put back, what the turns created and is removed, what
 * changed since (the conflicts, kept unless chosen otherwise), what is left as it is, and what the
 * turns wrote outside every recorded folder; or that there is nothing to restore. Every row says
 * its two choices in plain words and can show what will change on disk with the one selected.
 */
import { useState } from 'react'
import { displayFilePath, displayPath } from '../../../shared/display-path'
import type { RestorePlan } from '../../../shared/ipc-contract'
import type { PlanAction, PlanGroups } from './checkpoint-logic'
import { DiffView, ShowChangesToggle } from './DiffView'
import { choiceWords, diffLabel, emptyPlanText, reverseDiff, type RowChoice } from './plan-words'
import type { RestoreChoices } from './use-restore-choices'

/** The row's choice as the sheet holds it: conflicts are kept unless taken, other files rolled back unless kept. */
function choiceOf(a: PlanAction, sheet: RestoreChoices): RowChoice {
  if (a.kind === 'conflict') return sheet.choices[a.id] === 'take' ? 'roll-back' : 'keep'
  return sheet.kept.has(a.id) ? 'keep' : 'roll-back'
}

function setChoice(a: PlanAction, sheet: RestoreChoices, choice: RowChoice) {
  if (a.kind === 'conflict') return sheet.setChoices((c) => ({ ...c, [a.id]: choice === 'roll-back' ? 'take' : 'keep' }))
  sheet.setKept((k) => {
    const next = new Set(k)
    if (choice === 'keep') next.add(a.id)
    else next.delete(a.id)
    return next
  })
}

/** One file of the plan: its name, why it is a conflict, its choice, and its diff on demand. */
function PlanRow({ action: a, sheet }: { action: PlanAction; sheet: RestoreChoices }) {
  const [open, setOpen] = useState(false)
  const name = displayPath(a.path)
  const choice = choiceOf(a, sheet)
  const words = choiceWords(a)
  const conflict = a.kind === 'conflict'
  // Conflicts keep their own values (keep / take): what the tests and the host's overwrite list speak.
  const value = conflict ? (choice === 'roll-back' ? 'take' : 'keep') : choice
  return (
    <li data-kind={a.kind}>
      <span className="change-path" title={`${a.root}/${name}`}>
        {displayFilePath(a, sheet.directory)}
      </span>
      {conflict && a.reason && (
        <span className="change-reason" data-testid="conflict-reason">
          {a.reason}
        </span>
      )}
      <select
        aria-label={`What to do with ${name}`}
        data-testid={conflict ? 'conflict-choice' : 'file-choice'}
        value={value}
        onChange={(e) => setChoice(a, sheet, e.target.value === 'keep' ? 'keep' : 'roll-back')}
      >
        {/* The default first: conflicts are kept, the turn's own changes rolled back. */}
        {conflict ? (
          <>
            <option value="keep">{words.keep}</option>
            <option value="take">{words['roll-back']}</option>
          </>
        ) : (
          <>
            <option value="roll-back">{words['roll-back']}</option>
            <option value="keep">{words.keep}</option>
          </>
        )}
      </select>
      {(a.diff || a.binary) && <ShowChangesToggle name={name} open={open} onToggle={() => setOpen(!open)} />}
      {open && <RowDiff action={a} choice={choice} />}
    </li>
  )
}

/** What the choice selected does to the file: the plan's diff (now → before the turn), or the file kept. */
function RowDiff({ action: a, choice }: { action: PlanAction; choice: RowChoice }) {
  const label = diffLabel(a, choice)
  return (
    <div className="restore-row-diff" role="group" aria-label={`${label} ${displayPath(a.path)}`} data-testid="row-diff" data-choice={choice}>
      <p className="muted small">{label}</p>
      {a.binary || !a.diff ? (
        <p className="muted small">A binary file: no text to compare.</p>
      ) : (
        <DiffView diff={choice === 'keep' ? reverseDiff(a.diff) : a.diff} path={a.path} layout="unified" />
      )}
    </div>
  )
}

function Rows({ actions, sheet }: { actions: PlanAction[]; sheet: RestoreChoices }) {
  return (
    <ul>
      {actions.map((a) => (
        <PlanRow key={a.id} action={a} sheet={sheet} />
      ))}
    </ul>
  )
}

// One section per group, in the order the sheet reads: mostly one JSX tree.
export function RestorePlanGroups({ sheet, groups, plan, outside }: { sheet: RestoreChoices; groups: PlanGroups; plan: RestorePlan; outside: string[] }) {
  const { directory } = sheet
  const byTurns = plan.turns.length === 1 ? 'the turn' : 'these turns'
  return (
    <div className="restore-groups">
      {sheet.empty && <p data-testid="restore-empty">{emptyPlanText(groups, outside.length)}</p>}
      {groups.restored.length > 0 && (
        <section data-testid="restore-put-back">
          <h3>
            Changed by {byTurns}, put back ({groups.restored.length})
          </h3>
          <Rows actions={groups.restored} sheet={sheet} />
        </section>
      )}
      {groups.removed.length > 0 && (
        <section data-testid="restore-remove">
          <h3>
            Created by {byTurns}, deleted ({groups.removed.length})
          </h3>
          <Rows actions={groups.removed} sheet={sheet} />
        </section>
      )}
      {groups.conflicts.length > 0 && (
        <section data-testid="restore-conflicts">
          <h3>Changed since the turn, or not only by it ({groups.conflicts.length})</h3>
          <p className="muted">These files were edited after the turn, or while another session was working on this folder. Your version is kept unless you choose otherwise.</p>
          <Rows actions={groups.conflicts} sheet={sheet} />
        </section>
      )}
      {groups.untouched.length > 0 && (
        <section data-testid="restore-left">
          <h3>Left as they are ({groups.untouched.length})</h3>
          <ul>
            {groups.untouched.map((a) => (
              <li key={a.id} data-kind={a.kind}>
                <span className="change-path" title={`${a.root}/${displayPath(a.path)}`}>
                  {displayFilePath(a, directory)}
                </span>
                <span className="muted">{a.reason ?? 'over the size limit'}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {outside.length > 0 && (
        <section data-testid="restore-outside">
          <h3>Written outside the project ({outside.length})</h3>
          <ul>
            {outside.map((f) => (
              <li key={f}>{f} was written outside the project: it stays (Retake records only the project and the folders added in Settings).</li>
            ))}
          </ul>
        </section>
      )}
      {plan.warnings.map((w) => (
        <p key={w} className="muted">
          {w}
        </p>
      ))}
    </div>
  )
}
