// Retention and garbage collection. Turns are dropped by session, age, count or total bytes;
// then snapshots no turn or restore refers to are folded away and blobs no kept snapshot refers
// to are swept (mark and sweep). Forks copy turn records only: their blobs are shared.
import type { OpenStore } from './open-store'
import { originOf, Records } from './records'
import type { TurnRecord } from './records'
import type { RetentionPolicy } from '../types'

/**
 * Copies the session's turn records (up to and including `upToMessageID`) into the fork `to`.
 * `ids`: the fork's message id of each original one (opencode's fork gives the copied messages ids
 * of their own): the copy is recorded under it, so the fork's turn finds its checkpoint.
 */
export async function forkSession(e: OpenStore, from: string, to: string, upToMessageID?: string, ids: Record<string, string> = {}): Promise<number> {
  e.assertOpen()
  let turns = e.records.sessionTurns(from)
  if (upToMessageID) {
    const idx = turns.findIndex((t) => t.messageID === upToMessageID)
    if (idx >= 0) turns = turns.slice(0, idx + 1)
  }
  for (const t of turns) {
    const messageID = Object.hasOwn(ids, t.messageID) ? ids[t.messageID]! : t.messageID
    e.records.saveTurn({ ...t, sessionID: to, messageID, seq: e.records.nextSeq(), forkedFrom: from, origin: originOf(t) })
  }
  return turns.length
}

/*
 * A fork taken while a turn runs copies that turn open. The copy is the same work (same folder,
 * same capture), so it ends as the original does, with the same after-state: left open, it read as
 * another session's turn running for ever, and every later plan of the project took its own files
 * for that session's (conflicts); sealed on its own when the fork went idle, it held the fork's
 * later work too. The original's seal seals its open copies; a seal of a copy waits for the
 * original's, or takes its after-state if it ended.
 */

/**
 * Seals the open copies of `sealed` (and theirs, a fork of a fork), and moves on those sealed with
 * its earlier seal (`before`: the turn resumed after a pause, the last seal wins for both). Best
 * effort: one not written stays open and takes the after-state at its own seal.
 */
export function sealCopies(e: OpenStore, sealed: TurnRecord, before?: TurnRecord): string[] {
  const warnings: string[] = []
  const alongside = (t: TurnRecord) => t.status === 'open' || (before?.post != null && t.status === 'sealed' && t.post === before.post && t.sealedAt === before.sealedAt)
  for (const t of e.records.allTurns()) {
    if (!alongside(t) || t.forkedFrom !== sealed.sessionID || originOf(t) !== originOf(sealed) || t.pre !== sealed.pre) continue
    const copy: TurnRecord = { ...t, post: sealed.post, status: 'sealed', sealedAt: sealed.sealedAt }
    try {
      e.records.saveTurn(copy)
    } catch (err) {
      warnings.push(`the fork ${t.sessionID}'s copy of this turn could not be sealed yet: ${(err as Error).message}`)
      continue
    }
    warnings.push(...sealCopies(e, copy, t))
  }
  return warnings
}

/** For the seal of an open copy: true when the original decides (it runs, or it ended and the copy took its after-state). */
export function sealedAsOriginal(e: OpenStore, t: TurnRecord): boolean {
  if (t.status !== 'open' || t.forkedFrom === undefined) return false
  const original = e.records.sessionTurns(t.forkedFrom).find((o) => originOf(o) === originOf(t) && o.pre === t.pre)
  if (!original) return false
  if (original.status !== 'open' && original.post) {
    const copy: TurnRecord = { ...t, post: original.post, status: 'sealed', sealedAt: original.sealedAt }
    e.records.saveTurn(copy)
    sealCopies(e, copy)
  }
  return true
}

export async function deleteSession(e: OpenStore, sessionID: string): Promise<{ blobsSwept: number; bytesFreed: number }> {
  return e.exclusive('delete session', () => {
    for (const t of e.records.sessionTurns(sessionID)) e.records.deleteTurn(t)
    return gc(e)
  })
}

export async function applyRetention(e: OpenStore, policy: RetentionPolicy): Promise<{ turnsDropped: number; blobsSwept: number; bytesFreed: number }> {
  return e.exclusive('retention', () => {
    let dropped = 0
    const drop = (t: TurnRecord) => {
      if (t.status === 'open') return // a running turn keeps its pre-image
      e.records.deleteTurn(t)
      dropped++
    }
    const now = Date.now()
    if (policy.maxAgeMs !== undefined) for (const t of e.records.allTurns()) if (now - t.createdAt > policy.maxAgeMs) drop(t)
    if (policy.maxCountPerSession !== undefined) {
      const sessions = new Set(e.records.allTurns().map((t) => t.sessionID))
      for (const s of sessions) {
        const ts = e.records.sessionTurns(s)
        for (const t of ts.slice(0, Math.max(0, ts.length - policy.maxCountPerSession))) drop(t)
      }
    }
    if (policy.maxCount !== undefined) {
      const ts = e.records.allTurns()
      for (const t of ts.slice(0, Math.max(0, ts.length - policy.maxCount))) drop(t)
    }
    let swept = gc(e)
    let blobsSwept = swept.blobsSwept
    let bytesFreed = swept.bytesFreed
    if (policy.maxBytes !== undefined) {
      // Oldest turns first until the blobs fit; each drop is followed by a sweep to measure.
      while (blobBytes(e) > policy.maxBytes) {
        const oldest = e.records.allTurns().find((t) => t.status !== 'open')
        if (!oldest) break
        drop(oldest)
        swept = gc(e)
        blobsSwept += swept.blobsSwept
        bytesFreed += swept.bytesFreed
      }
    }
    return { turnsDropped: dropped, blobsSwept, bytesFreed }
  })
}

function blobBytes(e: OpenStore): number {
  let n = 0
  for (const size of e.blobs.list().values()) n += size
  return n
}

const pins = new WeakMap<OpenStore, () => Iterable<string>>()

/** Restores kept by every clean-up of this store (OpenOptions.pinnedRestores). */
export function pinRestores(e: OpenStore, pinned: () => Iterable<string>): void {
  pins.set(e, pinned)
}

/** The pinned restores this store holds (the storage view says they are kept). */
export function pinnedHeld(e: OpenStore): number {
  return [...new Set(pins.get(e)?.() ?? [])].filter((id) => e.records.restores.has(id)).length
}

/** Mark and sweep; callers hold the lock. */
export function gc(e: OpenStore): { blobsSwept: number; bytesFreed: number } {
  // Restores whose turns are all gone cannot be undone meaningfully any more — unless an attempt
  // points at one: its before-image is that attempt's files.
  const pinned = new Set(pins.get(e)?.() ?? [])
  for (const r of [...e.records.restores.values()]) {
    if (!pinned.has(r.restoreId) && !r.turns.some((k) => e.records.turns.has(Records.key(k)))) e.records.deleteRestore(r.restoreId)
  }
  const keep = new Set<string>()
  // A turn's earlier attempts keep their snapshots too: "continue from this attempt" needs them.
  for (const t of [...e.records.turns.values(), ...e.records.archived.values()]) {
    keep.add(t.pre)
    if (t.post) keep.add(t.post)
  }
  for (const r of e.records.restores.values()) {
    keep.add(r.pre)
    keep.add(r.post)
  }
  e.snaps.compact(keep)
  return e.blobs.sweep(e.snaps.referencedBlobs())
}

export async function sweep(e: OpenStore): Promise<{ blobsSwept: number; bytesFreed: number }> {
  return e.exclusive('sweep', () => gc(e))
}
