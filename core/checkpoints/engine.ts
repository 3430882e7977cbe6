// The engine's shared state and the capture paths (full scan and targeted). Restore, retention and
// the public facade are in their own modules and work on this object.
import fs from 'node:fs'
import path from 'node:path'
import { BlobStore } from './blobs'
import { dirSize, mkdirPrivate } from './fsutil'
import { gateStore } from './store-space'
import { StoreLock } from './lock'
import { StoreOwner } from './owner'
import { Records } from './records'
import { resolveRoots } from './roots'
import type { RootRuntime } from './roots'
import { noStats, walkRoot } from './scanner'
import { hashPending } from './hash-phase'
import type { RootState, ScanContext, ScanStats, WalkDelta, WalkResult } from './scanner'
import { SnapshotStore } from './snapshots'
import { ctimeMarginMs, fsTypeOf, RACY_MARGIN_MS } from './stat-proof'
import { startWatcher } from './watch'
import type { ChangeWatcher, WatchOption } from './change-journal'
import { JOURNAL_CHECK_EVERY, journalReports, journalScanFields, judgeJournals, tellJournal, watchedKeys } from './journal-check'
import { noMappings, unionMappings, writableMappings, type WritableMappings } from './mapped-files'
import type { PlanRegistry } from './planner'
import { registerStore } from './project-registry'
import type { PackMark } from './packs'
import type { State } from './snapshots'
import { TEMP_RE, writeJsonAtomic, readJson } from './fsutil'
import { CheckpointError } from './types'
import type { CaptureOptions, OpenOptions } from './types'

export const STORE_FORMAT = { format: 'retake-checkpoints', version: 1 }
export const DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024

export interface StoreMark {
  head: string | null
  packs: PackMark
}

export interface CaptureOutcome extends ScanStats {
  snapshotId: string
  snapshotBytes: number
  /** 'watched': only paths with watcher events were read; 'full': the whole tree was walked. */
  mode: 'full' | 'watched'
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

export class Engine {
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
  readonly watchers = new Map<string, ChangeWatcher>()
  /** Recent plans by id (restore.ts): apply only acts on plans this store made. */
  readonly plans: PlanRegistry = new Map()
  private readonly ctimeMargins = new Map<string, number>()
  /** Watched captures since the last full walk, and how many make a checking walk due. */
  private watchedSinceWalk = 0
  private readonly journalCheckEvery: number
  /** The files mapped writable at the last capture (mapped-files.ts). */
  private lastMapped = noMappings()
  private closed = false
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
      this.journalCheckEvery = opts.journalCheckEvery ?? JOURNAL_CHECK_EVERY
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
    // Events the watcher handed to the failed capture are lost with it: the next capture walks.
    for (const w of this.watchers.values()) w.baseline = false
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

  /**
   * Full capture: walk every non-shared root, read only files whose metadata changed since the
   * head snapshot, store new contents, make them durable, then commit the snapshot. Callers hold
   * the lock.
   */
  async captureAll(opts: CaptureOptions = {}): Promise<CaptureOutcome> {
    const { onProgress, afterRead } = opts
    const head = this.headState()
    // Read beside the barrier's wait: files mapped writable are re-read whatever anything says.
    const mapping = this.mappedFiles()
    // Every so many watched captures, a full walk checks the journal (journal-check.ts).
    const checking = head !== null && this.watchedSinceWalk >= this.journalCheckEvery
    const quick = head && !checking ? await watchedKeys(this.roots, this.watchers, head, mapping) : null
    const mapped = await mapping
    if (quick) {
      const stats = noStats()
      const { id, bytes } = await this.captureKeysWith(quick, stats, opts, mapped)
      this.watchedSinceWalk++
      return { ...stats, snapshotId: id, snapshotBytes: bytes, mode: 'watched' }
    }
    this.watchedSinceWalk = 0
    const reported = checking ? await journalReports(this.roots, this.watchers, mapped) : new Map<string, Set<string>>()
    // A watcher that saw a folder created may lack watches (see watch.ts): subscribe afresh before
    // the walk. Events seen so far are superseded by the walk; later ones are kept (conservative).
    for (const w of this.watchers.values()) {
      if (w.dirCreated || !w.healthy) await w.resubscribe()
      w.reset()
    }
    const stats = noStats()
    const progress = { filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0 }
    const next: State = new Map()
    const work: { ctx: ScanContext; pending: WalkResult['pending'] }[] = []
    const walked = new Map<string, WalkDelta>()
    for (const root of this.roots) {
      if (root.shared) continue
      const w = this.watchers.get(root.id)
      const onFolder = w ? (st: fs.Stats) => w.checkFolder(st) : undefined
      const ctx: ScanContext = {
        rootAbs: root.abs,
        rules: root.rules(),
        blobs: this.blobs,
        maxFileBytes: this.maxFileBytes,
        prior: head?.get(root.id),
        trustStatBefore: this.racyLine(),
        ctimeTrustBefore: this.ctimeLine(root.abs),
        onProgress,
        afterRead,
        stats,
        progress,
        onFolder,
        ...journalScanFields(root, this.watchers.get(root.id), mapped, this.ctimeMargin(root.abs), new Set()),
      }
      const { state, pending, delta } = walkRoot(ctx)
      walked.set(root.id, delta)
      next.set(root.id, state)
      work.push({ ctx, pending })
    }
    onProgress?.({ phase: 'scan', ...progress })
    for (const w of work) await hashPending(w.ctx, w.pending)
    // Content first, then the snapshot that refers to it: a crash in between leaves only
    // unreferenced blobs (swept later), never a snapshot pointing at missing content.
    this.blobs.flush()
    const { id, bytes } = this.snaps.commit(next, this.rootPaths(), undefined, walked)
    // The baseline is valid only once every event from before and during the walk has been
    // delivered: the watcher coalesces events per path (a pending create + a later delete vanish
    // together), so a sequence straddling the baseline could otherwise hide a change.
    for (const w of this.watchers.values()) w.baseline = w.healthy && (await w.barrier()) && !w.dirCreated
    for (const { ctx } of work) tellJournal(this.watchers.get(this.rootIdOf(ctx.rootAbs)), ctx)
    stats.warnings.push(...judgeJournals(reported, this.rootById, this.watchers, head, next, walked))
    return { ...stats, snapshotId: id, snapshotBytes: bytes, mode: 'full' }
  }

  /** The files mapped writable now or at the last capture (one may have been written just before its unmap). */
  private async mappedFiles(): Promise<WritableMappings> {
    const now = await writableMappings()
    const both = unionMappings(now, this.lastMapped)
    this.lastMapped = now
    return both
  }

  async startWatchers(option: WatchOption): Promise<void> {
    for (const root of this.roots) {
      if (root.shared || this.watchers.has(root.id)) continue
      const w = await startWatcher(root.abs, [this.storeDir], option)
      if (w) this.watchers.set(root.id, w)
    }
  }

  async stopWatchers(): Promise<void> {
    for (const w of this.watchers.values()) await w.stop()
    this.watchers.clear()
  }

  /** Lets go of everything the engine holds, the store's ownership last; every call after fails (ECLOSED). */
  async close(): Promise<void> {
    this.closed = true
    await this.stopWatchers()
    this.blobs.packs.closeCurrent()
    this.lock.release()
    gateStore(this.storeDir, null)
    this.owner.release()
  }

  /**
   * The few paths a restore touches, read before and after it acts: always by content (never by
   * stat), so the undo of a restore that overwrote a file puts back what was really there.
   * `inPlace`: the head's cached state becomes the new head's instead of a copy (a restore's
   * post-capture: a copy of the whole tree's 20,000+ entries and their garbage was ~5% of an
   * install's restore). The state before is rebuilt from the snapshots if asked for again (an undo).
   */
  async captureKeys(keys: Map<string, Set<string>>, inPlace = false): Promise<string> {
    const stats = noStats()
    return (await this.captureKeysWith(keys, stats, {}, await this.mappedFiles(), -Infinity, inPlace)).id
  }

  /** Recorded entries with an mtime at or after this are racy (see ScanContext.trustStatBefore). */
  private racyLine(): number {
    const created = this.snaps.headCreatedAt
    return created === null ? -Infinity : created - RACY_MARGIN_MS
  }

  /** A ctime recorded by a capture starting now is a proof only if before this (stat-proof.ts). */
  private ctimeLine(abs: string): number {
    return Date.now() - this.ctimeMargin(abs)
  }

  /** How far a ctime may lag the clock on this root's file system (stat-proof.ts). */
  private ctimeMargin(abs: string): number {
    let margin = this.ctimeMargins.get(abs)
    if (margin === undefined) this.ctimeMargins.set(abs, (margin = ctimeMarginMs(fsTypeOf(abs))))
    return margin
  }

  private async captureKeysWith(
    keys: Map<string, Set<string>>,
    stats: ScanStats,
    { onProgress, afterRead }: CaptureOptions,
    mapped: WritableMappings,
    trustStatBefore = this.racyLine(),
    inPlace = false,
  ): Promise<{ id: string; bytes: number }> {
    const head = this.headState()
    const progress = { filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0 }
    const next: State = new Map()
    for (const root of this.roots) {
      if (root.shared) continue
      const prior: RootState = head?.get(root.id) ?? new Map()
      const only = keys.get(root.id)
      if (!only || only.size === 0) continue
      const ctx: ScanContext = {
        rootAbs: root.abs,
        rules: root.rules(),
        blobs: this.blobs,
        maxFileBytes: this.maxFileBytes,
        prior,
        trustStatBefore,
        ctimeTrustBefore: this.ctimeLine(root.abs),
        only,
        stats,
        progress,
        onProgress,
        afterRead,
        ...journalScanFields(root, this.watchers.get(root.id), mapped, this.ctimeMargin(root.abs)),
      }
      const { state, pending } = walkRoot(ctx)
      await hashPending(ctx, pending)
      tellJournal(this.watchers.get(root.id), ctx)
      next.set(root.id, state)
    }
    this.blobs.flush()
    return this.snaps.commit(next, this.rootPaths(), keys, undefined, inPlace)
  }

  storeBytes(): number {
    return dirSize(this.storeDir)
  }
}
