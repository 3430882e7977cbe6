// What a completed restore or undo says about the turns and restores it concerns. Undo chains:
// R (a restore) ← U1 (undo of R) ← U2 (undo of U1) … Undoing one makes the record it undid hold
// again, and the folder is as R left it while an even number of undos stand on top of R: undoing
// U1 (a redo) restores R's turns again, undoing R or U2 leaves them sealed.
import type { Engine } from '../capture/engine'
import { Records } from '../store/records'
import type { RestoreRecord } from '../store/records'
import type { TurnKey } from '../types'

export function markTurns(e: Engine, keys: TurnKey[], status: 'restored' | 'sealed', by: string | undefined): void {
  for (const k of keys) {
    const t = e.records.turns.get(Records.key(k))
    if (!t || t.status === status) continue
    e.records.saveTurn({ ...t, status, restoredBy: by })
  }
}

/** The undo of `restoreId` completed. */
export function markUndone(e: Engine, restoreId: string): void {
  const orig = e.records.restores.get(restoreId)
  if (!orig) return
  e.records.saveRestore({ ...orig, status: 'undone' })
  const below = orig.undoOf ? e.records.restores.get(orig.undoOf) : undefined
  if (below) e.records.saveRestore({ ...below, status: 'done' })
  const { base, depth } = undoChain(e, orig)
  markRestoredBy(e, base, depth % 2 === 1)
}

/**
 * The session's latest restore that can be undone now (the top of its undo chain), or null: kept
 * in the store, so "Undo restore" outlives the window, the next prompt and a restart. `rolledBack`
 * says whether the files are as the restore at the bottom of the chain left them (undo) or as
 * before it (redo).
 */
export function lastRestoreOf(e: Engine, sessionID: string): { restoreId: string; turn: TurnKey; createdAt: number; rolledBack: boolean } | null {
  let top: RestoreRecord | null = null
  for (const r of e.records.restores.values()) {
    if (r.status === 'undone' || !r.turns.some((k) => k.sessionID === sessionID)) continue
    if (!top || r.createdAt > top.createdAt || (r.createdAt === top.createdAt && r.restoreId > top.restoreId)) top = r
  }
  if (!top) return null
  const { base, depth } = undoChain(e, top)
  return { restoreId: top.restoreId, turn: base.turns[0]!, createdAt: top.createdAt, rolledBack: depth % 2 === 0 }
}

/** The restore at the bottom of `r`'s undo chain, and how many undos `r` is above it. */
function undoChain(e: Engine, r: RestoreRecord): { base: RestoreRecord; depth: number } {
  let base = r
  let depth = 0
  const seen = new Set<string>()
  while (base.kind === 'undo' && base.undoOf && !seen.has(base.restoreId)) {
    seen.add(base.restoreId)
    const below = e.records.restores.get(base.undoOf)
    if (!below) break
    base = below
    depth++
  }
  return { base, depth }
}

/**
 * After an undo in `base`'s chain: its turns are restored by it again (`restored`) or not. Only the
 * records `base` itself restored change: a turn retaken since (a fresh record under the same
 * message id, maybe still running) is another turn and keeps its status.
 */
function markRestoredBy(e: Engine, base: RestoreRecord, restored: boolean): void {
  for (const k of base.turns) {
    const t = e.records.turns.get(Records.key(k))
    if (!t) continue
    if (restored && t.status === 'sealed' && t.createdAt < base.createdAt) e.records.saveTurn({ ...t, status: 'restored', restoredBy: base.restoreId })
    if (!restored && t.status === 'restored' && t.restoredBy === base.restoreId) e.records.saveTurn({ ...t, status: 'sealed', restoredBy: undefined })
  }
}
