/**
 * The restore sheet's plan, grouped: what is put back, what the turns created and is removed, what
 * changed since (the conflicts: keep mine / take the checkpoint / view diff), what is left as it is;
 * or that there is nothing to restore.
 */
import type { ReactNode } from 'react'
import { displayFilePath, displayPath } from '../../../shared/display-path'
import type { RestorePlan } from '../../../shared/ipc-contract'
import type { ConflictChoice, PlanAction, PlanGroups } from './checkpoint-logic'
import { DiffLines } from './TurnChanges'
import type { RestoreChoices } from './use-restore-choices'

function PlanRow({ action: a, directory, children }: { action: PlanAction; directory: string | undefined; children?: ReactNode }) {
  return (
    <li data-kind={a.kind}>
      <span className="change-path" title={`${a.root}/${displayPath(a.path)}`}>
        {displayFilePath(a, directory)}
      </span>
      {children}
    </li>
  )
}

/** Roll back a file of the turn or keep it as it is now. */
function FileChoice({ action: a, rollBack, sheet }: { action: PlanAction; rollBack: string; sheet: RestoreChoices }) {
  return (
    <select
      aria-label={`What to do with ${displayPath(a.path)}`}
      data-testid="file-choice"
      value={sheet.kept.has(a.id) ? 'keep' : 'roll-back'}
      onChange={(e) =>
        sheet.setKept((k) => {
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
}

/** A conflict's reason, its keep/take choice, and its diff on demand. */
function ConflictControls({ action: a, sheet }: { action: PlanAction; sheet: RestoreChoices }) {
  const { choices, setChoices, diffOf, setDiffOf } = sheet
  return (
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
    </>
  )
}

// One section per group, in the order the sheet reads: mostly one JSX tree.
export function RestorePlanGroups({ sheet, groups, plan }: { sheet: RestoreChoices; groups: PlanGroups; plan: RestorePlan }) {
  const { directory } = sheet
  const byTurns = plan.turns.length === 1 ? 'the turn' : 'these turns'
  return (
    <div className="restore-groups">
      {sheet.empty && <p data-testid="restore-empty">Nothing to restore: the files already are as they were before this turn.</p>}
      {groups.restored.length > 0 && (
        <section data-testid="restore-put-back">
          <h3>Put back ({groups.restored.length})</h3>
          <ul>
            {groups.restored.map((a) => (
              <PlanRow key={a.id} action={a} directory={directory}>
                <FileChoice action={a} rollBack={a.kind === 'recreate' ? 'Bring back' : 'Put back'} sheet={sheet} />
              </PlanRow>
            ))}
          </ul>
        </section>
      )}
      {groups.removed.length > 0 && (
        <section data-testid="restore-remove">
          <h3>
            Created by {byTurns}, will be removed ({groups.removed.length})
          </h3>
          <ul>
            {groups.removed.map((a) => (
              <PlanRow key={a.id} action={a} directory={directory}>
                <FileChoice action={a} rollBack="Remove" sheet={sheet} />
              </PlanRow>
            ))}
          </ul>
        </section>
      )}
      {groups.conflicts.length > 0 && (
        <section data-testid="restore-conflicts">
          <h3>Changed since the turn, or not only by it ({groups.conflicts.length})</h3>
          <p className="muted">These files were edited after the turn, or while another session was working on this folder. They are kept unless you choose otherwise.</p>
          <ul>
            {groups.conflicts.map((a) => (
              <PlanRow key={a.id} action={a} directory={directory}>
                <ConflictControls action={a} sheet={sheet} />
              </PlanRow>
            ))}
          </ul>
        </section>
      )}
      {groups.untouched.length > 0 && (
        <section data-testid="restore-left">
          <h3>Left as they are ({groups.untouched.length})</h3>
          <ul>
            {groups.untouched.map((a) => (
              <PlanRow key={a.id} action={a} directory={directory}>
                <span className="muted">{a.reason ?? 'over the size limit'}</span>
              </PlanRow>
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
