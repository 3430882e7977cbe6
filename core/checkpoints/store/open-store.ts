// A store as one engine opened it: its files (blobs, snapshots, records), the roots it covers, its
// operation lock and its claim as the store's one owner. The capture paths (capture/engine.ts) build
// on it; retention, verify and what reads records alone need nothing more.
import fs from 'node:fs'
import path from 'node:path'
import { BlobStore } from './blobs'
import { dirSize, mkdirPrivate, readJson, TEMP_RE, writeJsonAtomic } from './fsutil'
import { StoreLock } from './lock'
import { StoreOwner } from './owner'
import type { PackMark } from './packs'
import { registerStore } from './project-registry'
import { Records } from './records'
import { resolveRoots, type RootRuntime } from './roots'
import type { State } from './snapshot-deltas'
import { SnapshotStore } from './snapshots'
import { gateStore } from './store-space'
import { CheckpointError, type OpenOptions } from '../types'

export const STORE_FORMAT = { format: 'retake-checkpoints', version: 1 }
export const DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024

export interface StoreMark {
  head: string | null
  packs: PackMark
}

/** The store's own half-written files (`.retake-….tmp` beside records, blobs in tmp/). */
function removeStoreTemps(storeDir: string): void {
  const visit = (dir: string, depth: number): void => {
    let names: fs.Dirent[]
    try {
      names = fs.readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const d of names) {
      const p = path.join(dir, d.name)
      if (d.isDirectory()) {
        if (depth < 3 && d.name !== 'blobs' && d.name !== 'damaged') visit(p, depth + 1)
      } else if (TEMP_RE.test(d.name) || (depth === 1 && path.basename(dir) === 'tmp')) fs.rmSync(p, { force: true })
    }
  }
  visit(storeDir, 0)
}

export class OpenStore {
  readonly storeDir: string
  readonly roots: RootRuntime[]
  readonly rootById: Map<string, RootRuntime>
  readonly blobs: BlobStore
  readonly snaps: SnapshotStore
  readonly records: Records
  readonly lock: StoreLock
  /** Held from open to close: no other engine, in this process or another, uses the store meanwhile. */
  readonly owner: StoreOwner
  readonly maxFileBytes: number
  readonly warnings: string[] = []
  protected closed = false
  /** The user's registry of stores by folder (project-registry.ts), if the host gave one. */
  readonly registry: string | null

  constructor(opts: OpenOptions) {
    this.storeDir = path.resolve(opts.storeDir)
    mkdirPrivate(this.storeDir)
    this.owner = new StoreOwner(this.storeDir)
    this.owner.claim()
    gateStore(this.storeDir, opts.spaceGate ?? null)
    try {
      const fmtFile = path.join(this.storeDir, 'format.json')
      const fmt = readJson<{ format: string; version: number }>(fmtFile)
      if (fmt && (fmt.format !== STORE_FORMAT.format || fmt.version !== STORE_FORMAT.version))
        throw new CheckpointError('EFORMAT', `unsupported checkpoint store format ${JSON.stringify(fmt)} in ${this.storeDir}`)
      if (!fmt) writeJsonAtomic(fmtFile, STORE_FORMAT)
      this.roots = resolveRoots(opts.roots, this.storeDir, this.warnings)
      this.rootById = new Map(this.roots.map((r) => [r.id, r]))
      this.maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
      this.blobs = new BlobStore(this.storeDir)
      this.snaps = new SnapshotStore(this.storeDir)
      this.records = new Records(this.storeDir)
      this.lock = new StoreLock(this.storeDir)
      this.registry = opts.projectRegistry ?? null
      if (this.registry) registerStore(this.registry, this.storeDir, this.roots)
      // Temp files of writes a crash cut short: nobody else uses the store, so none is in use.
      removeStoreTemps(this.storeDir)
      // We own the store: an operation lock on file is a dead process's (a crash mid-restore is
      // completed from the journal by recover()), whatever process now has its pid.
      this.lock.clearStale()
    } catch (err) {
      gateStore(this.storeDir, null)
      this.owner.release()
      throw err
    }
    this.warnings.push(...this.snaps.warnings, ...this.records.warnings)
  }

  /** What the store holds before a capture writes anything. */
  mark(): StoreMark {
    return { head: this.snaps.headId, packs: this.blobs.mark() }
  }

  /**
   * Put the store back as `m` found it after a capture failed part-way: the blobs it added, the
   * snapshot it may have committed, and its temp files go. Why: on a full disk the partial capture
   * (megabytes) would keep the disk full for every later prompt, and a pack cut mid-write would
   * misplace the next blob. Best effort: a failure here is reported, never hides the first error.
   */
  rollback(m: StoreMark): void {
    try {
      this.snaps.dropAfter(m.head)
      this.blobs.rollback(m.packs)
    } catch (err) {
      this.warnings.push(`could not remove a failed checkpoint entirely: ${(err as Error).message}`)
    }
  }

  assertOpen(): void {
    if (this.closed) throw new CheckpointError('ECLOSED', 'checkpoint store is closed')
  }

  /** A store operation: refused once closed, run holding the lock (another may hold it up to 5 s). */
  async exclusive<T>(purpose: string, fn: () => T | Promise<T>): Promise<T> {
    this.assertOpen()
    await this.lock.acquire(purpose, 5000)
    try {
      return await fn()
    } finally {
      this.lock.release()
    }
  }

  rootIdOf = (abs: string): string => {
    // A loop, not find(): asked several times per path of a restore (no closure made per call).
    for (const r of this.roots) if (r.abs === abs) return r.id
    throw new CheckpointError('EBAD_PATH', `unknown root ${abs}`)
  }

  headState(): State | null {
    const h = this.snaps.headId
    return h ? this.snaps.state(h) : null
  }

  rootPaths(): Map<string, string> {
    return new Map(this.roots.map((r) => [r.id, r.abs]))
  }

  /** Lets go of the store's files, its lock and its ownership last (close calls it once the rest is stopped). */
  protected release(): void {
    this.blobs.packs.closeCurrent()
    this.lock.release()
    gateStore(this.storeDir, null)
    this.owner.release()
  }

  storeBytes(): number {
    return dirSize(this.storeDir)
  }
}
