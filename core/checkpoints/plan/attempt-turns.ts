// The turn records of a turn's attempts. A retake asks the same message again, so its fresh
// capture replaces the turn's record; the replaced one (the previous attempt's turn, restored by
// the retake's restore) is archived (records.ts). "Continue from this attempt" swaps it back: the
// current record is archived in its place, so switching back and forth keeps both.
import type { Engine } from '../capture/engine'
import { Records } from '../store/records'
import type { TurnKey } from '../types'

/**
 * Makes the archived record of `key` that `restoreId` restored the current one again (its status
 * stays `restored` until that restore is undone, which marks it sealed). False when there is none
 * (the attempt was retaken without a restore: the record was never replaced).
 */
export async function bringBackAttemptTurn(e: Engine, key: TurnKey, restoreId: string): Promise<boolean> {
  return e.exclusive('attempt', () => {
    const current = e.records.turns.get(Records.key(key))
    const earlier = e.records.archivedOf(key).find((t) => t.restoredBy === restoreId && t.createdAt !== current?.createdAt)
    if (!earlier) return false
    if (current?.status === 'open') throw new Error('a turn is still running; wait for it to end')
    // Archive first, then replace, then drop the archived copy: a crash between the writes leaves a
    // record in both places, never in neither (records.ts keeps the current one on open).
    if (current) e.records.archiveTurn(current)
    e.records.saveTurn(earlier)
    e.records.dropArchived(earlier)
    return true
  })
}
