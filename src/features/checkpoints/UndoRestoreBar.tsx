/**
 * After a restore made from the chat (a retake's, or files only from its sheet): what it did, and
 * "Undo restore", which puts the folder back as it was just before the restore (and says what that
 * changed). Once undone, "Redo restore" rolls the files back again, and so on: each click undoes the
 * record the previous one made. Which record that is comes from the host's last restore of the
 * session (the query the Checkpoints panel and /undo read too), never from a copy kept here, so an
 * undo made there is the one this bar continues from. Only files move here; the conversation stays
 * as the retake left it.
 */
import { useState } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import { NOTHING_CHANGED, undoBarNoteAfter, undoBarText, type UndoBarNote } from './checkpoint-logic'
import { useLastRestore, useUndoRestore } from './use-checkpoints'

/** What the bar says about the restore just made; `seq` counts them, so a new restore's bar starts afresh. */
export interface RestoreNote {
  text: string
  seq: number
}

export function UndoRestoreBar({ sessionID, note, onDone }: { sessionID: string; note: string; onDone(): void }) {
  const last = useLastRestore(sessionID)
  const undo = useUndoRestore()
  // The words are the bar's own (what its last click did); the record and its state are the host's.
  const [said, setSaid] = useState<UndoBarNote>({ text: note, rolledBack: true })
  const [nothing, setNothing] = useState(false)
  const top = last.data
  if (!top) return null
  // A record read before the latest restore or undo would undo the wrong one: wait for the fresh one.
  const settling = undo.isPending || last.isFetching
  const click = () => {
    // Moved elsewhere since the bar last spoke: what is on screen now (the host's state) stays
    // while this click runs, not the bar's older words, which would claim the click done already.
    if (said.rolledBack !== top.rolledBack) setSaid({ text: undoBarText(said, top.rolledBack, false), rolledBack: top.rolledBack })
    undo.mutate(top.restoreId, {
      onSuccess: (r) => {
        // Nothing to do (the files already are that way): no new record, nothing to flip.
        if (!r.restoreId) return setNothing(true)
        setNothing(false)
        setSaid(undoBarNoteAfter(r, top.rolledBack))
      },
    })
  }
  const label = top.rolledBack ? 'Undo restore' : 'Redo restore'
  return (
    <div className="undo-restore" role="status" data-testid="undo-restore-bar">
      <span data-testid="restore-summary">
        {undoBarText(said, top.rolledBack, settling)}
        {nothing && ` ${NOTHING_CHANGED}`}
      </span>
      <button type="button" className="button button-secondary small" data-testid={top.rolledBack ? 'undo-restore' : 'redo-restore'} disabled={settling} onClick={click}>
        {undo.isPending ? (said.rolledBack ? 'Undoing…' : 'Redoing…') : label}
      </button>
      {undo.error && <span className="inline-error">{errorMessage(undo.error)}</span>}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDone}>
        ×
      </button>
    </div>
  )
}
