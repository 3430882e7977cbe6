// Change tracking with an OS file watcher (@parcel/watcher: inotify / FSEvents / ReadDirectoryChangesW,
// N-API so the same build loads in Node and Electron). A full walk of 21k files costs 120–400 ms in
// Node; with the watcher a capture after a small change only re-reads the paths that had events.
//
// Events arrive asynchronously (batched ~50 ms), so before trusting the dirty set a capture makes a
// barrier: it creates a temp file in the root (named like the engine's own temp files, which scans
// never record) and waits for that file's event; inotify delivers a watch's events in order, so every
// change made before the barrier has been seen. Any doubt — watcher error, a barrier that times
// out, a folder created or deleted, a .gitignore change — falls back to the full scan, which stays
// the verifier.
//
// STATUS: opt-in (OpenOptions.watch), off by default. Under load a watched capture missed an
// in-place modification inside a folder created just after the subscription; reproduced directly
// against @parcel/watcher: after `mkdir -p` of 20 folders under load, changes in 0–11 of them were
// never reported (see dirCreated). The engine now re-subscribes after any folder creation and
// trusts no baseline until a scan passes without one, but that fix is younger than the evidence,
// so full scans stay the default.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { InotifyWatcher } from './inotify-watch'
import { JournalState, type ChangeWatcher } from './change-journal'

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
export async function startWatcher(root: string, ignoreAbs: string[]): Promise<ChangeWatcher | null> {
  if (process.platform === 'linux' && process.env.RETAKE_CK_WATCHER !== 'parcel') {
    return InotifyWatcher.start(root, ignoreAbs)
  }
  return RootWatcher.start(root, ignoreAbs)
}

export class RootWatcher extends JournalState implements ChangeWatcher {
  private seq = 0
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
    const file = path.join(this.root, `.retake-barrier-${process.pid}-${++this.seq}.retake-w.tmp`)
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
