/**
 * After a restore: what it did, and "Undo restore", which puts the folder back as it was just
 * before the restore (and says what that changed). Once undone, "Redo restore" rolls the files back
 * again, and so on: each click undoes the record the previous one made (the engine keeps the chain).
 * Only files move here; the conversation stays as the retake left it.
 */
import { useState } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import { useUndoRestore } from './use-checkpoints'

export interface LastRestore {
  restoreId: string
  result: { applied: unknown[]; skipped: unknown[]; failed: unknown[] }
}

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`

function describe(r: LastRestore['result']): string {
  const parts = [`${files(r.applied.length)} restored`]
  if (r.skipped.length) parts.push(`${r.skipped.length} kept as you had ${r.skipped.length === 1 ? 'it' : 'them'}`)
  if (r.failed.length) parts.push(`${r.failed.length} failed`)
  return parts.join(', ')
}

/** The record the next click undoes, whether the folder is rolled back now, and what to say. */
interface Top {
  restoreId: string
  rolledBack: boolean
  text: string
}

export function UndoRestoreBar({ restore, onDone }: { restore: LastRestore; onDone(): void }) {
  const undo = useUndoRestore()
  const [top, setTop] = useState<Top>({ restoreId: restore.restoreId, rolledBack: true, text: `Files rolled back: ${describe(restore.result)}.` })
  const [nothing, setNothing] = useState(false)
  const click = () =>
    undo.mutate(top.restoreId, {
      onSuccess: (r) => {
        // Nothing to do (the files already are that way): no new record, nothing to flip.
        if (!r.restoreId) return setNothing(true)
        setNothing(false)
        const extra = r.skipped.length ? `; ${r.skipped.length} kept as you had ${r.skipped.length === 1 ? 'it' : 'them'}` : ''
        setTop(
          top.rolledBack
            ? { restoreId: r.restoreId, rolledBack: false, text: `Undo put ${files(r.applied.length)} back as they were before the restore${extra}.` }
            : { restoreId: r.restoreId, rolledBack: true, text: `Redo rolled ${files(r.applied.length)} back again${extra}.` },
        )
      },
    })
  const label = top.rolledBack ? 'Undo restore' : 'Redo restore'
  return (
    <div className="undo-restore" role="status" data-testid="undo-restore-bar">
      <span data-testid="restore-summary">
        {top.text}
        {nothing && ' Nothing changed: the files already were that way.'}
      </span>
      <button type="button" className="button button-secondary small" data-testid={top.rolledBack ? 'undo-restore' : 'redo-restore'} disabled={undo.isPending} onClick={click}>
        {undo.isPending ? (top.rolledBack ? 'Undoing…' : 'Redoing…') : label}
      </button>
      {undo.error && <span className="inline-error">{errorMessage(undo.error)}</span>}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDone}>
        ×
      </button>
    </div>
  )
}
