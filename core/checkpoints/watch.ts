// Change tracking with an OS file watcher, so a capture after a small change re-reads only the
// paths that had events instead of walking the whole tree (a full walk of 21k files costs 45–400 ms
// in Node). On Linux the engine's own inotify worker (inotify-watch.ts); elsewhere @parcel/watcher
// (FSEvents, ReadDirectoryChangesW; N-API, so the same build loads in Node and Electron).
//
// Events arrive asynchronously, so before trusting the dirty set a capture makes a barrier: it
// creates a temp file in the root (named like the engine's own temp files, which scans never
// record) and waits for that file's event; a watch delivers its events in order, so every change
// made before the barrier has been seen. Any doubt — watcher error, a barrier that times out, a
// folder created or deleted, a .gitignore change, more events than the kernel is sure to have kept —
// falls back to the full scan, which stays the verifier.
//
// DEFAULT ('auto'): on for roots on a local Linux file system, where every way inotify can miss a
// change is either ruled out or checked (see journalDecision and inotify-watch.ts); off elsewhere
// unless asked for (`watch: true`): network and FUSE file systems can change behind inotify's back,
// and the parcel backends are not exercised by this project's CI.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { InotifyWatcher } from './inotify-watch'
import { fsTypeOf } from './stat-proof'
import { JournalState, LOCAL_FS, type ChangeWatcher } from './change-journal'

type Sub = { unsubscribe(): Promise<void> }
type ParcelEvent = { path: string; type: 'create' | 'update' | 'delete' }
type Parcel = {
  subscribe(dir: string, fn: (err: Error | null, events: ParcelEvent[]) => unknown, opts?: { ignore?: string[] }): Promise<Sub>
}

let parcel: Parcel | null | undefined
function loadParcel(): Parcel | null {
  if (parcel !== undefined) return parcel
  try {
    parcel = createRequire(import.meta.url)('@parcel/watcher') as Parcel
  } catch {
    parcel = null
  }
  return parcel
}

const BARRIER_TIMEOUT_MS = 2000

/**
 * The change journal for a root. On Linux the engine's own inotify watcher (no 50 ms debounce, see
 * inotify-watch.ts); elsewhere @parcel/watcher (FSEvents, ReadDirectoryChangesW: one watch for the
 * tree, where one handle per folder would cost a file descriptor each on macOS).
 * RETAKE_CK_WATCHER=parcel forces parcel (tests compare both).
 */
export async function startWatcher(root: string, ignoreAbs: string[], option: WatchOption = 'auto'): Promise<ChangeWatcher | null> {
  const decision = journalDecision(option, process.platform, fsTypeOf(root) ?? null, process.env.RETAKE_CK_WATCHER)
  if (decision.backend === 'inotify') return InotifyWatcher.start(root, ignoreAbs)
  if (decision.backend === 'parcel') return RootWatcher.start(root, ignoreAbs)
  return null
}

export type WatchOption = boolean | 'auto'

/** Which change journal a root gets, and why (pure: unit-tested). */
export function journalDecision(option: WatchOption, platform: string, fsType: number | null, forced?: string): { backend: 'inotify' | 'parcel' | null; why: string } {
  if (option === false) return { backend: null, why: 'off (watch: false)' }
  const linux = platform === 'linux'
  if (option === true) return { backend: linux && forced !== 'parcel' ? 'inotify' : 'parcel', why: 'on (watch: true)' }
  if (!linux) return { backend: null, why: `off: ${platform} has no default journal (watch: true turns on @parcel/watcher)` }
  const name = fsType === null ? null : LOCAL_FS.get(fsType)
  if (!name) return { backend: null, why: `off: the folder is not on a local file system (type 0x${(fsType ?? 0).toString(16)}), full walks` }
  return { backend: forced === 'parcel' ? 'parcel' : 'inotify', why: `on: ${name}` }
}

export class RootWatcher extends JournalState implements ChangeWatcher {
  private seq = 0
  /** Unique per journal: two stores may watch one folder in one process (see inotify-watch.ts). */
  private readonly tag = `${process.pid}-${randomBytes(6).toString('hex')}`
  private readonly waiting = new Map<string, () => void>()

  private constructor(
    readonly root: string,
    private sub: Sub | null,
  ) {
    super()
  }

  private ignore: string[] = []

  static async start(root: string, ignoreAbs: string[]): Promise<RootWatcher | null> {
    const w = new RootWatcher(root, null)
    w.ignore = ['.git', ...ignoreAbs.filter((a) => a.startsWith(root + path.sep)).map((a) => path.relative(root, a))]
    return (await w.subscribe()) ? w : null
  }

  private readonly callback = (err: Error | null, events: ParcelEvent[]): void => this.onEvents(err, events)

  private async subscribe(): Promise<boolean> {
    const p = loadParcel()
    if (!p) return false
    this.subscribedAt = Date.now()
    try {
      this.devices = new Set([fs.statSync(this.root).dev])
      this.sub = await p.subscribe(this.root, this.callback, { ignore: this.ignore })
      return true
    } catch {
      return false // no watcher (limits, unsupported file system): full scans only
    }
  }

  /**
   * Drop the subscription and make a fresh one (parcel shares one watcher per folder, so the old
   * one must go first). Callers walk the tree afterwards, so a change in the gap is still seen.
   */
  async resubscribe(): Promise<void> {
    await this.stop()
    if (this.gaveUp) {
      this.broken = true
      return
    }
    this.broken = false
    this.baseline = false
    this.dirCreated = false
    this.dirty = new Set()
    if (!(await this.subscribe())) this.broken = true
  }

  private onEvents(err: Error | null, events: ParcelEvent[]): void {
    if (err) {
      this.broken = true
      return
    }
    for (const e of events) {
      const done = this.waiting.get(e.path)
      if (done) {
        if (e.type === 'create') done()
        continue
      }
      if (path.basename(e.path).startsWith('.retake-barrier-')) continue
      this.dirty.add(e.path)
      if (e.type === 'create' && !this.dirCreated) {
        try {
          if (fs.lstatSync(e.path).isDirectory()) this.dirCreated = true
        } catch {
          /* already gone */
        }
      }
    }
  }

  /** Wait until every change made before this call has been delivered. */
  async barrier(): Promise<boolean> {
    if (this.broken || !this.sub) return false
    const file = path.join(this.root, `.retake-barrier-${this.tag}-${++this.seq}.retake-w.tmp`)
    const seen = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), BARRIER_TIMEOUT_MS)
      this.waiting.set(file, () => {
        clearTimeout(timer)
        resolve(true)
      })
    })
    try {
      fs.writeFileSync(file, '')
    } catch {
      this.waiting.delete(file)
      return false
    }
    const ok = await seen
    this.waiting.delete(file)
    fs.rmSync(file, { force: true })
    if (!ok) this.broken = true
    return ok
  }

  get healthy(): boolean {
    return !this.broken && this.sub !== null
  }

  async stop(): Promise<void> {
    const s = this.sub
    this.sub = null
    if (s) await s.unsubscribe().catch(() => undefined)
  }
}
