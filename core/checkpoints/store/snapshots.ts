// Snapshots are stored as deltas: each file holds only the entries that changed since its parent,
// the oldest kept one holds everything. A turn whose capture finds nothing new reuses the previous
// snapshot id, so an idle turn costs no store bytes; one changed file costs one small delta.
// Deleting unreferenced snapshots folds their changes into the next kept one (see compact()).
import fs from 'node:fs'
import path from 'node:path'
import { mkdirPrivate, readJson, writeJsonAtomic } from './fsutil'
import { applyDelta, cloneState, keysDelta, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, stateDelta, validateSnapshot } from './snapshot-deltas'
import type { SnapshotFile, State, WalkDelta } from './snapshot-deltas'

export class SnapshotStore {
  private readonly dir: string
  /** Chain oldest → newest. */
  private chain: SnapshotFile[] = []
  private readonly byId = new Map<string, SnapshotFile>()
  private readonly cache = new Map<string, State>()
  readonly warnings: string[] = []
  readonly rootPaths = new Map<string, string>()
  /** The chain's oldest snapshot lost its parent (see load). */
  private brokenBase = false

  constructor(storeDir: string) {
    this.dir = path.join(storeDir, 'snapshots')
    mkdirPrivate(this.dir)
    this.load()
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.json`)
  }

  private load(): void {
    const files = new Map<string, SnapshotFile>()
    for (const name of fs.readdirSync(this.dir).sort()) {
      if (!name.endsWith('.json')) continue
      const v = validateSnapshot(readJson(path.join(this.dir, name)))
      if (typeof v === 'string') {
        this.warnings.push(`ignored snapshot ${name}: ${v}`)
        continue
      }
      files.set(v.id, v)
    }
    // Follow parent links back from the newest: files left outside the chain (an interrupted
    // compaction) are not part of any state.
    const ids = [...files.keys()].sort()
    const chain: SnapshotFile[] = []
    let cur = ids.length ? files.get(ids[ids.length - 1]!) : undefined
    while (cur) {
      chain.unshift(cur)
      cur = cur.parent ? files.get(cur.parent) : undefined
      if (chain[0]!.parent && !cur) {
        // The oldest kept file is only a delta: states up to the next full snapshot are unknown,
        // and reading them as complete would make every path missing from it look absent.
        this.warnings.push(`snapshot chain broken before ${chain[0]!.id}; older snapshots unusable`)
        this.brokenBase = true
        chain[0]!.parent = null
      }
    }
    this.chain = chain
    if (chain[0]?.partial) this.brokenBase = true
    for (const s of chain) {
      this.byId.set(s.id, s)
      for (const [rid, d] of Object.entries(s.roots)) this.rootPaths.set(rid, d.path)
    }
  }

  /** When the head snapshot was written (null: no snapshot yet). */
  get headCreatedAt(): number | null {
    return this.chain.length ? this.chain[this.chain.length - 1]!.createdAt : null
  }

  get headId(): string | null {
    return this.chain.length ? this.chain[this.chain.length - 1]!.id : null
  }
  has(id: string): boolean {
    return this.byId.has(id)
  }
  ids(): string[] {
    return this.chain.map((s) => s.id)
  }

  /** The full state at snapshot `id` (cached; callers must not mutate it). */
  state(id: string): State | null {
    const hit = this.cache.get(id)
    if (hit) return hit
    const idx = this.chain.findIndex((s) => s.id === id)
    if (idx < 0) return null
    // Start from the nearest cached state at or before idx (after a break: from a full snapshot).
    let start = 0
    let st: State = new Map()
    let floor = 0
    if (this.brokenBase) {
      floor = this.chain.findLastIndex((s, i) => i <= idx && s.full === true)
      if (floor < 0) return null
      start = floor
    }
    for (let i = idx; i >= floor; i--) {
      const c = this.cache.get(this.chain[i]!.id)
      if (c) {
        start = i + 1
        st = cloneState(c)
        break
      }
    }
    for (let i = start; i <= idx; i++) applyDelta(st, this.chain[i]!)
    this.remember(id, st)
    return st
  }

  private remember(id: string, st: State): void {
    this.cache.set(id, st)
    // Keep a few recent states; the head's is the incremental base and stays.
    for (const k of this.cache.keys()) {
      if (this.cache.size <= 4) break
      if (k !== this.headId && k !== id) this.cache.delete(k)
    }
  }

  /**
   * Record `next` as a new snapshot unless it equals the head; returns its id. `only` limits the
   * comparison to the paths a targeted capture refreshed (the rest is the head's, unchanged);
   * `walked` tells, per root, what a full walk found different (see WalkDelta).
   */
  commit(next: State, roots: Map<string, string>, only?: Map<string, Set<string>>, walked?: Map<string, WalkDelta>, inPlace = false): string {
    const head = this.headId
    const prev = head ? this.state(head) : null
    for (const [rid, p] of roots) this.rootPaths.set(rid, p)
    const delta = prev && only ? keysDelta(this.rootPaths, prev, next, only) : stateDelta(this.rootPaths, prev ?? new Map(), next, walked)
    const changed = !prev || Object.keys(delta).length > 0
    if (!changed && head) return head
    const id = String((head ? Number(head) : 0) + 1).padStart(12, '0')
    const snap: SnapshotFile = {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      id,
      parent: head,
      createdAt: Date.now(),
      roots: delta,
      ...(prev ? {} : { full: true as const }),
    }
    writeJsonAtomic(this.file(id), snap)
    this.chain.push(snap)
    this.byId.set(id, snap)
    let full: State
    if (only && prev && inPlace) {
      // The head's cached state becomes the new one; the old head's is rebuilt if asked for. So a
      // state handed out earlier may change at the next restore: no caller holds one across an
      // await without the lock (changes.ts reads its entries first).
      this.cache.delete(head!)
      full = prev
      applyDelta(full, snap)
    } else if (only) {
      full = prev ? cloneState(prev) : new Map()
      applyDelta(full, snap)
    } else {
      // A full capture is the new state already (no copy of the head): roots it did not walk
      // (shared ones) keep the head's record, as applying the delta would. The first one holds
      // every path of its roots, exactly what applying its delta to nothing gives.
      full = new Map(next)
      if (prev) for (const [rid, rs] of prev) if (!full.has(rid)) full.set(rid, rs)
    }
    this.remember(id, full)
    return id
  }

  /**
   * Forget the snapshots committed after `headId` and delete their files: a capture that failed
   * after its commit (the turn record did not fit on the disk) leaves the chain as it found it.
   */
  dropAfter(headId: string | null): void {
    while (this.chain.length && this.headId !== headId) this.forget(this.chain.pop()!.id)
  }

  /** A snapshot out of the chain: its file deleted, nothing of it kept in memory. */
  private forget(id: string): void {
    this.byId.delete(id)
    this.cache.delete(id)
    fs.rmSync(this.file(id), { force: true })
  }

  /** Each blob the chain refers to, with the first path that refers to it (for verify's report). */
  blobRefs(): Map<string, { rootPath: string; key: string }> {
    const out = new Map<string, { rootPath: string; key: string }>()
    for (const s of this.chain)
      for (const d of Object.values(s.roots))
        for (const [key, e] of Object.entries(d.set)) if (e.hash && e.type === 'file' && !out.has(e.hash)) out.set(e.hash, { rootPath: d.path, key })
    return out
  }

  referencedBlobs(): Set<string> {
    const out = new Set<string>()
    for (const s of this.chain) for (const d of Object.values(s.roots)) for (const e of Object.values(d.set)) if (e.hash && e.type === 'file') out.add(e.hash)
    return out
  }

  /**
   * Drop every snapshot not in `keep` (the head is always kept: it is the incremental base).
   * A dropped snapshot's changes are folded into the next kept one, which is rewritten before
   * the dropped file is deleted, so a crash in between leaves a usable chain.
   */
  compact(keep: Set<string>): number {
    const head = this.headId
    if (head) keep.add(head)
    // One pass over the original chain with a running state; each kept snapshot is re-expressed
    // against the previous kept one when something between them (or before it) was dropped.
    const running: State = new Map()
    let lastKept: State = new Map()
    let lastKeptId: string | null = null
    const kept: SnapshotFile[] = []
    let dropped = 0
    let folded = false
    // After a break, the running state is only whole from the first full snapshot on.
    let whole = !this.brokenBase
    for (const s of this.chain) {
      if (s.full) {
        running.clear()
        whole = true
      }
      applyDelta(running, s)
      if (!keep.has(s.id)) {
        folded = true
        dropped++
        continue
      }
      let out = s
      if (folded || (lastKeptId === null && s.parent !== null)) {
        const { full: _full, partial: _partial, ...rest } = s
        const base = lastKeptId === null ? (whole ? { full: true as const } : { partial: true as const }) : {}
        out = { ...rest, ...base, parent: lastKeptId, roots: stateDelta(this.rootPaths, lastKept, running) }
        writeJsonAtomic(this.file(s.id), out)
        this.byId.set(s.id, out)
      }
      kept.push(out)
      lastKept = cloneState(running)
      lastKeptId = s.id
      folded = false
    }
    const removed = this.chain.filter((s) => !keep.has(s.id))
    this.chain = kept
    for (const s of removed) this.forget(s.id)
    return dropped
  }

  /**
   * Paths that may differ between two snapshots of the chain: the union of the deltas after
   * `fromId` up to `toId` (cost ∝ changes, not ∝ workspace). Null if not in that order.
   */
  changedKeys(fromId: string, toId: string): Map<string, Set<string>> | null {
    const from = this.chain.findIndex((s) => s.id === fromId)
    const to = this.chain.findIndex((s) => s.id === toId)
    if (from < 0 || to < 0 || from > to) return null
    const out = new Map<string, Set<string>>()
    for (let i = from + 1; i <= to; i++) {
      for (const [rid, d] of Object.entries(this.chain[i]!.roots)) {
        let set = out.get(rid)
        if (!set) out.set(rid, (set = new Set()))
        for (const k of Object.keys(d.set)) set.add(k)
        for (const k of d.del) set.add(k)
      }
    }
    return out
  }
}
