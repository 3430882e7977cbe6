// The engine: an open store (open-store.ts) and the capture paths, full walk and targeted, with
// the watchers that let a capture skip the walk. Restore, retention and the public facade are in
// their own modules and work on this object.
import type fs from 'node:fs'
import { noStats, walkRoot } from './scanner'
import { hashPending } from './hash-phase'
import type { ScanContext, WalkResult } from './scanner'
import { OpenStore, type StoreMark } from '../store/open-store'
import { ctimeMarginMs, fsTypeOf, RACY_MARGIN_MS } from './stat-proof'
import { startWatcher } from './watch'
import type { ChangeWatcher, WatchOption } from './change-journal'
import { JOURNAL_CHECK_EVERY, journalScanFields, journalSinceHead, judgeJournals, tellJournal, watchedKeys } from './journal-check'
import { noMappings, unionMappings, writableMappings, type WritableMappings } from './mapped-files'
import type { RootState, State, WalkDelta } from '../store/snapshot-deltas'
import type { RootRuntime } from '../store/roots'
import type { CaptureOptions, CaptureResult, OpenOptions, ScanStats } from '../types'

type CaptureOutcome = Omit<CaptureResult, 'turnKey' | 'created'>

export class Engine extends OpenStore {
  readonly watchers = new Map<string, ChangeWatcher>()
  private readonly ctimeMargins = new Map<string, number>()
  /** Watched captures since the last full walk, and how many make a checking walk due. */
  private watchedSinceWalk = 0
  private readonly journalCheckEvery: number
  /** The files mapped writable at the last capture (mapped-files.ts). */
  private lastMapped = noMappings()

  constructor(opts: OpenOptions) {
    super(opts)
    this.journalCheckEvery = opts.journalCheckEvery ?? JOURNAL_CHECK_EVERY
  }

  /** As OpenStore's, and the events the watchers handed to the failed capture are lost with it: the next capture walks. */
  override rollback(m: StoreMark): void {
    super.rollback(m)
    for (const w of this.watchers.values()) w.baseline = false
  }

  /**
   * Full capture: walk every non-shared root, read only files whose metadata changed since the
   * head snapshot, store new contents, make them durable, then commit the snapshot. Callers hold
   * the lock.
   */
  async captureAll(opts: CaptureOptions = {}): Promise<CaptureOutcome> {
    const head = this.headState()
    // Read beside the barrier's wait: files mapped writable are re-read whatever anything says.
    const mapping = this.mappedFiles()
    // Every so many watched captures, a full walk checks the journal (journal-check.ts).
    const checking = head !== null && this.watchedSinceWalk >= this.journalCheckEvery
    const quick = head && !checking ? await watchedKeys(this.roots, this.watchers, head, mapping) : null
    const mapped = await mapping
    if (quick) {
      const { id, stats } = await this.captureKeysWith(quick, opts, mapped)
      this.watchedSinceWalk++
      return { ...stats, snapshotId: id, mode: 'watched' }
    }
    this.watchedSinceWalk = 0
    const reported = checking ? await journalSinceHead(this.roots, this.watchers, mapped, true) : new Map<string, Set<string>>()
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
      const ctx: ScanContext = { ...this.scanContext(root, opts, stats, progress, mapped, new Set()), prior: head?.get(root.id), trustStatBefore: this.racyLine(), onFolder }
      const { state, pending, delta } = walkRoot(ctx)
      walked.set(root.id, delta)
      next.set(root.id, state)
      work.push({ ctx, pending })
    }
    opts.onProgress?.({ phase: 'scan', ...progress })
    for (const w of work) await hashPending(w.ctx, w.pending)
    // Content first, then the snapshot that refers to it: a crash in between leaves only
    // unreferenced blobs (swept later), never a snapshot pointing at missing content.
    this.blobs.flush()
    const id = this.snaps.commit(next, this.rootPaths(), undefined, walked)
    // The baseline is valid only once every event from before and during the walk has been
    // delivered: the watcher coalesces events per path (a pending create + a later delete vanish
    // together), so a sequence straddling the baseline could otherwise hide a change.
    for (const w of this.watchers.values()) w.baseline = w.healthy && (await w.barrier()) && !w.dirCreated
    for (const { ctx } of work) tellJournal(this.watchers.get(this.rootIdOf(ctx.rootAbs)), ctx)
    stats.warnings.push(...judgeJournals(reported, this.rootById, this.watchers, head, next, walked))
    return { ...stats, snapshotId: id, mode: 'full' }
  }

  /** What a capture's context for a root holds whether it walks the root or reads given keys. */
  private scanContext(root: RootRuntime, opts: CaptureOptions, stats: ScanStats, progress: ScanContext['progress'], mapped: WritableMappings, linked?: Set<string>) {
    return {
      rootAbs: root.abs,
      rules: root.rules(),
      blobs: this.blobs,
      maxFileBytes: this.maxFileBytes,
      ctimeTrustBefore: this.ctimeLine(root.abs),
      onProgress: opts.onProgress,
      afterRead: opts.afterRead,
      stats,
      progress,
      ...journalScanFields(root, this.watchers.get(root.id), mapped, this.ctimeMargin(root.abs), linked),
    }
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
    this.release()
  }

  /**
   * The few paths a restore touches, read before and after it acts: always by content (never by
   * stat), so the undo of a restore that overwrote a file puts back what was really there.
   * `inPlace`: the head's cached state becomes the new head's instead of a copy (a restore's
   * post-capture: a copy of the whole tree's 20,000+ entries and their garbage was ~5% of an
   * install's restore). The state before is rebuilt from the snapshots if asked for again (an undo).
   */
  async captureKeys(keys: Map<string, Set<string>>, inPlace = false): Promise<string> {
    return (await this.captureKeysWith(keys, {}, await this.mappedFiles(), -Infinity, inPlace)).id
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
    opts: CaptureOptions,
    mapped: WritableMappings,
    trustStatBefore = this.racyLine(),
    inPlace = false,
  ): Promise<{ id: string; stats: ScanStats }> {
    const stats = noStats()
    const head = this.headState()
    const progress = { filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0 }
    const next: State = new Map()
    for (const root of this.roots) {
      if (root.shared) continue
      const prior: RootState = head?.get(root.id) ?? new Map()
      const only = keys.get(root.id)
      if (!only || only.size === 0) continue
      const ctx: ScanContext = { ...this.scanContext(root, opts, stats, progress, mapped), prior, trustStatBefore, only }
      const { state, pending } = walkRoot(ctx)
      await hashPending(ctx, pending)
      tellJournal(this.watchers.get(root.id), ctx)
      next.set(root.id, state)
    }
    this.blobs.flush()
    return { id: this.snaps.commit(next, this.rootPaths(), keys, undefined, inPlace), stats }
  }
}
