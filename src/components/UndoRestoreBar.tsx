/**
 * After a restore: what it did, and "Undo restore", which puts the folder back as it was just
 * before the restore (and says what that changed).
 */
import { useState } from 'react'
import { errorMessage } from '../api/unwrap'
import { useUndoRestore } from '../checkpoints/use-checkpoints'

export interface LastRestore {
  restoreId: string
  result: { applied: unknown[]; skipped: unknown[]; failed: unknown[] }
}

function describe(r: LastRestore['result']): string {
  const parts = [`${r.applied.length} file${r.applied.length === 1 ? '' : 's'} restored`]
  if (r.skipped.length) parts.push(`${r.skipped.length} kept as you had ${r.skipped.length === 1 ? 'it' : 'them'}`)
  if (r.failed.length) parts.push(`${r.failed.length} failed`)
  return parts.join(', ')
}

export function UndoRestoreBar({ restore, onDone }: { restore: LastRestore; onDone(): void }) {
  const undo = useUndoRestore()
  const [undone, setUndone] = useState<string | null>(null)
  return (
    <div className="undo-restore" role="status" data-testid="undo-restore-bar">
      <span data-testid="restore-summary">{undone ?? `Files rolled back: ${describe(restore.result)}.`}</span>
      {!undone && (
        <button
          type="button"
          className="button button-secondary small"
          data-testid="undo-restore"
          disabled={undo.isPending}
          onClick={() =>
            undo.mutate(restore.restoreId, {
              onSuccess: (r) => setUndone(`Undo put ${r.applied.length} file${r.applied.length === 1 ? '' : 's'} back as they were before the restore.`),
            })
          }
        >
          Undo restore
        </button>
      )}
      {undo.error && <span className="inline-error">{errorMessage(undo.error)}</span>}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDone}>
        ×
      </button>
    </div>
  )
}
