// What a snapshot file holds (a delta per root against its parent), checked strictly when read
// back, and the arithmetic on states the snapshot store does with it: the delta between two states,
// a delta applied to a state. Pure: snapshots.ts keeps the files and the chain.
import { isSafeKey, BLOB_ID_RE } from './paths'
import type { Entry } from '../types'
import { sameRecordedXattrs, validXattrs } from './xattrs'

export const SNAPSHOT_FORMAT = 'retake-checkpoint-snapshot'
export const SNAPSHOT_VERSION = 1

/** One root's recorded paths, by root-relative key. */
export type RootState = Map<string, Entry>
export type State = Map<string, RootState>

/**
 * What a full walk found different from the record it started from, so the snapshot diff looks at
 * those paths only instead of comparing every path again.
 */
export interface WalkDelta {
  /** The record the walk compared with (the hint is only valid against this very object). */
  prior: RootState | undefined
  /** Keys whose entry is not the prior record's own object: new, or changed in some field. */
  fresh: string[]
  /** How many walked keys the prior record holds; fewer than its size means some were deleted. */
  known: number
}

export interface RootDelta {
  path: string
  set: Record<string, Entry>
  del: string[]
}
export interface SnapshotFile {
  format: string
  version: number
  id: string
  parent: string | null
  createdAt: number
  roots: Record<string, RootDelta>
  /** Holds every entry (written with no state to diff against), not only the changes. */
  full?: true
  /** The oldest kept snapshot of a chain that was broken: its state is not known whole. */
  partial?: true
}

/**
 * Equal records. `ctimeMs` is left out: it is a proof kept when it can be (stat-proof.ts), and a
 * file read again only because it was racy gains one — no change, and no new snapshot for it. So a
 * snapshot's delta carries it for the files that changed, and memory may hold more than disk.
 */
export function sameEntry(a: Entry | undefined, b: Entry | undefined): boolean {
  if (a === b) return true
  if (!a || !b) return false
  return (
    a.type === b.type && a.mode === b.mode && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.hash === b.hash && a.link === b.link && sameRecordedXattrs(a, b)
  )
}

/** Strict validation of data read back from disk: no traversal keys, no malformed blob ids. */
function validEntry(e: unknown): e is Entry {
  if (!e || typeof e !== 'object') return false
  const x = e as Record<string, unknown>
  if (!['file', 'dir', 'symlink', 'oversize'].includes(x.type as string)) return false
  if (typeof x.mode !== 'number' || typeof x.size !== 'number' || typeof x.mtimeMs !== 'number' || typeof x.ino !== 'number') return false
  if (x.hash !== undefined && (typeof x.hash !== 'string' || !BLOB_ID_RE.test(x.hash))) return false
  if ((x.type === 'file' || x.type === 'symlink') && x.hash === undefined) return false
  if (x.type === 'symlink' && typeof x.link !== 'string') return false
  if (x.ctimeMs !== undefined && (typeof x.ctimeMs !== 'number' || x.type !== 'file')) return false
  return x.xattrs === undefined || validXattrs(x.xattrs)
}

export function validateSnapshot(raw: unknown): SnapshotFile | string {
  if (!raw || typeof raw !== 'object') return 'empty or unreadable snapshot'
  const s = raw as SnapshotFile
  if (s.format !== SNAPSHOT_FORMAT) return `unknown snapshot format ${JSON.stringify(s.format)}`
  if (s.version !== SNAPSHOT_VERSION) return `unsupported snapshot version ${s.version}`
  if (typeof s.id !== 'string' || !/^[0-9]{12}$/.test(s.id)) return 'bad snapshot id'
  if (!s.roots || typeof s.roots !== 'object') return 'snapshot without roots'
  for (const [rid, d] of Object.entries(s.roots)) {
    if (!/^[0-9a-f]{16}$/.test(rid) || typeof d.path !== 'string' || !Array.isArray(d.del)) return 'bad root record'
    for (const [k, e] of Object.entries(d.set ?? {})) {
      if (!isSafeKey(k)) return `unsafe path in snapshot: ${JSON.stringify(k)}`
      if (!validEntry(e)) return `bad entry for ${JSON.stringify(k)}`
    }
    for (const k of d.del) if (typeof k !== 'string' || !isSafeKey(k)) return `unsafe path in snapshot: ${JSON.stringify(k)}`
  }
  return s
}

/** The delta of `target` against `base` over the keys `only` names (a targeted capture's). */
export function keysDelta(rootPaths: Map<string, string>, base: State, target: State, only: Map<string, Set<string>>): Record<string, RootDelta> {
  const roots: Record<string, RootDelta> = {}
  for (const [rid, keys] of only) {
    const before = base.get(rid)
    const after = target.get(rid)
    const d: RootDelta = { path: rootPaths.get(rid) ?? '', set: {}, del: [] }
    for (const k of keys) {
      const e = after?.get(k)
      if (e && !sameEntry(before?.get(k), e)) d.set[k] = e
      else if (!e && before?.has(k)) d.del.push(k)
    }
    if (!before || Object.keys(d.set).length || d.del.length) roots[rid] = d
  }
  return roots
}

/** The delta of `target` against `base`, per root; `walked` narrows it to what a full walk found different. */
export function stateDelta(rootPaths: Map<string, string>, base: State, target: State, walked?: Map<string, WalkDelta>): Record<string, RootDelta> {
  const roots: Record<string, RootDelta> = {}
  for (const [rid, rs] of target) {
    const before = base.get(rid)
    const d: RootDelta = { path: rootPaths.get(rid) ?? '', set: {}, del: [] }
    const w = walked?.get(rid)
    if (before && w && w.prior === before) {
      // The walk kept the head's own entry objects for unchanged paths: only the others can differ.
      for (const k of w.fresh) {
        const e = rs.get(k)
        if (e && !sameEntry(before.get(k), e)) d.set[k] = e
      }
      if (w.known < before.size) for (const k of before.keys()) if (!rs.has(k)) d.del.push(k)
    } else {
      for (const [k, e] of rs) if (!sameEntry(before?.get(k), e)) d.set[k] = e
      if (before) for (const k of before.keys()) if (!rs.has(k)) d.del.push(k)
    }
    if (!before || Object.keys(d.set).length || d.del.length) roots[rid] = d
  }
  return roots
}

export function applyDelta(st: State, s: SnapshotFile): void {
  for (const [rid, d] of Object.entries(s.roots)) {
    let rs = st.get(rid)
    if (!rs) st.set(rid, (rs = new Map()))
    for (const k of d.del) rs.delete(k)
    for (const [k, e] of Object.entries(d.set)) rs.set(k, e)
  }
}

export function cloneState(s: State): State {
  const out: State = new Map()
  for (const [rid, rs] of s) out.set(rid, new Map(rs))
  return out
}
