// The change journal: @parcel/watcher on every platform (inotify on Linux, FSEvents on macOS,
// ReadDirectoryChangesW on Windows; N-API, so one build loads in Node and Electron), so a capture
// after a small change re-reads only the paths with events instead of walking the whole tree.
//
// It is a hint, never a proof. Before trusting the dirty set a capture makes a barrier: it creates
// a uniquely named temp file in the root (named like the engine's own temp files, which walks never
// record) and waits for that file's event. One subscription's events arrive in order (in batches,
// after parcel's 50 ms debounce when events came in the last 500 ms), so every change made before
// the barrier has been delivered once it shows up. Any doubt — a watcher error, a barrier that
// times out, more events than the kernel is sure to have kept, a name that is not UTF-8, a folder
// created, a mount made — falls back to the full walk, which stays the verifier.
//
// DEFAULT ('auto'): on for roots on a local Linux file system, where each way inotify can miss a
// change is ruled out, re-read anyway (hard links, writable mappings: journal-check.ts) or found by
// the check walk; off elsewhere unless asked for (`watch: true`): network and FUSE file systems
// change behind any watcher's back, and macOS and Windows have no statfs types to tell them by.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { loadNative } from '../../native-modules'
import { fsTypeOf } from './stat-proof'
import { journalDecision, mountsUnder, overflowBound, watchedDevices, YOUNG_FOLDER_MS, type ChangeWatcher, type WatchOption } from './change-journal'

type Sub = { unsubscribe(): Promise<void> }
type ParcelEvent = { path: string; type: 'create' | 'update' | 'delete' }
type Parcel = {
  subscribe(dir: string, fn: (err: Error | null, events: ParcelEvent[]) => unknown, opts?: { ignore?: string[] }): Promise<Sub>
}

const BARRIER_TIMEOUT_MS = 2000
const BARRIER_PREFIX = '.retake-barrier-'

/** The change journal for a root, or null when it gets none (see journalDecision) or cannot watch it. */
export async function startWatcher(root: string, ignoreAbs: string[], option: WatchOption = 'auto'): Promise<ChangeWatcher | null> {
  if (!journalDecision(option, process.platform, fsTypeOf(root) ?? null).on) return null
  const w = new ParcelJournal(root, ignoreAbs)
  return (await w.subscribe()) ? w : null
}

/**
 * The journals subscribed now, by watched folder. Parcel keeps one folder tree per watched folder
 * while any subscription to it lives, and a new subscription beside a live one reuses that tree:
 * folders it lacks (made too fast for their watch) would stay unwatched. A fresh subscription is
 * therefore made with no other alive on the folder (resubscribe).
 */
const live = new Map<string, Set<ParcelJournal>>()

/**
 * Watched folders whose unsubscribe failed. Parcel keeps a watch under the name it was made with:
 * a folder renamed, then a folder inside it deleted, leaves a watch the kernel dropped, and the
 * unsubscribe stops at it (EINVAL) with the rest of that subscription, and its folder tree, kept.
 * Every later subscription to the folder in this process reuses that tree instead of reading the
 * disk: folders it lacks (moved in, made too fast) get no watch, however old they are. Never trusted again.
 */
const staleTrees = new Set<string>()

class ParcelJournal implements ChangeWatcher {
  /** A folder was created since the subscription: it may lack its watch (see checkFolder). */
  dirCreated = false
  /** True once a full walk ran with this subscription and a barrier after it: dirty is relative to it. */
  baseline = false
  linked = new Set<string>()
  deliveredBefore = 0
  failure: string | null = null
  /** The root cannot be watched faithfully (a network mount inside it, the watch limit): never resubscribed. */
  gaveUp = false
  private sub: Sub | null = null
  private subscribedAt = 0
  private dirty = new Set<string>()
  private broken = false
  /** The devices of the folders watched, and the mounts below the root, at the subscription. */
  private covered: { devices: Set<number>; mounts: string } = { devices: new Set(), mounts: '' }
  private events = 0
  private eventsBefore = 0
  private seq = 0
  /** Unique per journal: two stores may watch one folder in one process, each with its own barriers. */
  private readonly tag = `${process.pid}-${randomBytes(6).toString('hex')}`
  private readonly waiting = new Map<string, () => void>()
  /** The folder parcel watches: the root's real path (parcel cannot watch through a link). */
  private readonly real: string
  private readonly ignore: string[]

  constructor(
    readonly root: string,
    ignoreAbs: string[],
  ) {
    let real = root
    try {
      real = fs.realpathSync(root)
    } catch {
      /* subscribe fails below */
    }
    this.real = real
    // The folders a walk never enters at the top (nested ones' events are dropped by the walk's rules).
    const inside = ignoreAbs.filter((a) => a.startsWith(root + path.sep)).map((a) => path.relative(root, a))
    this.ignore = ['.git', '.hg', '.svn', ...inside]
  }

  /** Subscribes; resolves once every folder has its watch. */
  async subscribe(): Promise<boolean> {
    // No build for this platform (or not shipped): full walks.
    const p = loadNative<Parcel>('@parcel/watcher')
    if (!p) return false
    this.subscribedAt = this.deliveredBefore = Date.now()
    this.events = this.eventsBefore = 0
    if (staleTrees.has(this.real)) {
      this.giveUp(`cannot watch ${this.root} afresh: an earlier subscription to it could not be removed`)
      return false
    }
    try {
      const watched = watchedDevices(this.real)
      if (typeof watched === 'string') {
        this.giveUp(watched)
        return false
      }
      this.covered = watched
      this.sub = await p.subscribe(this.real, (err, events) => this.onEvents(err, events), { ignore: this.ignore })
    } catch (err) {
      const msg = (err as Error).message
      // A watch per folder: past fs.inotify.max_user_watches every new subscription fails the same way.
      if (/No space left|ENOSPC/i.test(msg)) this.giveUp(`cannot watch ${this.root}: the inotify watch limit (fs.inotify.max_user_watches) is reached`)
      else this.failure = `cannot watch ${this.root}: ${msg}`
      return false
    }
    let peers = live.get(this.real)
    if (!peers) live.set(this.real, (peers = new Set()))
    peers.add(this)
    return true
  }

  /**
   * Drop the subscription and make a fresh one, with a fresh folder tree: the other journals on the
   * same folder let go first and subscribe again afterwards (their events in between are lost, so
   * their next capture walks). Callers walk the tree afterwards, so a change in the gap is seen.
   */
  async resubscribe(): Promise<void> {
    await this.stop()
    if (this.gaveUp) {
      this.broken = true
      return
    }
    const peers = [...(live.get(this.real) ?? [])]
    for (const peer of peers) await peer.stop()
    this.broken = false
    this.baseline = false
    this.dirCreated = false
    this.dirty = new Set()
    if (!(await this.subscribe())) this.broken = true
    for (const peer of peers) {
      if (peer.gaveUp) continue
      peer.baseline = false
      peer.broken = !(await peer.subscribe())
    }
  }

  private onEvents(err: Error | null, events: ParcelEvent[]): void {
    if (err) {
      this.broken = true
      this.failure ??= `watcher error: ${err.message}`
    }
    const prefix = this.real + path.sep
    for (const e of events) {
      const name = path.basename(e.path)
      if (name.startsWith(BARRIER_PREFIX)) {
        // Matched by name (unique to this journal), whatever spelling of the root the backend uses.
        if (e.type !== 'delete') this.waiting.get(name)?.()
        continue // or another journal's barrier
      }
      this.events++
      // Parcel hands names over as UTF-8 strings: bytes that are not UTF-8 came back as U+FFFD, a
      // name no call can open. Only a walk (which reads names as bytes) can see that file.
      if (e.path.includes('\uFFFD')) {
        this.broken = true
        this.failure ??= 'an event for a name that is not UTF-8'
        continue
      }
      const abs = this.real === this.root || !e.path.startsWith(prefix) ? e.path : path.join(this.root, e.path.slice(prefix.length))
      this.dirty.add(abs)
      // Any event on what is a folder now means a folder made since the last look, whose files
      // may have no event: parcel reports a folder deleted and made again between two deliveries
      // as an "update" of it (and "delete" for its old files, made again too), and the new
      // folder's watch comes after its first files. Only a walk sees them.
      if (!this.dirCreated) {
        try {
          if (fs.lstatSync(abs).isDirectory()) this.dirCreated = true
        } catch {
          /* already gone */
        }
      }
    }
  }

  /** Wait until every change made before this call has been delivered. */
  async barrier(): Promise<boolean> {
    if (this.broken || !this.sub) return false
    const name = `${BARRIER_PREFIX}${this.tag}-${++this.seq}.retake-w.tmp`
    const file = path.join(this.real, name)
    const seen = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), BARRIER_TIMEOUT_MS)
      this.waiting.set(name, () => {
        clearTimeout(timer)
        resolve(true)
      })
    })
    const madeAt = Date.now()
    try {
      fs.writeFileSync(file, '')
    } catch {
      this.waiting.delete(name)
      return false
    }
    const ok = await seen
    if (ok) this.deliveredBefore = madeAt
    this.waiting.delete(name)
    // Removed only once seen: a create and a delete in one batch vanish together.
    fs.rmSync(file, { force: true })
    if (!ok) {
      this.broken = true
      this.failure ??= `a barrier was not reported within ${BARRIER_TIMEOUT_MS} ms`
    }
    const recent = this.eventsBefore + this.events
    this.eventsBefore = this.events
    this.events = 0
    if (recent >= overflowBound()) {
      this.broken = true // not for good: the next walk subscribes afresh
      this.failure = `${recent} events since the capture before last: the kernel may have dropped some`
    }
    // A mount made since the subscription covers a folder with a file system no watch is on.
    if (mountsUnder(this.real) !== this.covered.mounts) this.dirCreated = true
    return !this.broken
  }

  /** Take the paths with events since the last take (absolute). Null when not trustworthy. */
  take(): Set<string> | null {
    const d = this.dirty
    this.dirty = new Set()
    return this.broken || !this.baseline ? null : d
  }

  peek(): ReadonlySet<string> {
    return this.dirty
  }

  /**
   * Paths a capture just recorded as present with a content or type it had not seen: the next
   * capture looks at them again. Parcel merges a path's events between two deliveries and drops a
   * create followed by a delete, so a file made just before the capture read it and removed just
   * after could leave no event at all, and the record would keep a file that is gone.
   */
  recheck(absPaths: Iterable<string>): void {
    for (const p of absPaths) this.dirty.add(p)
  }

  /**
   * Called by the full walk for every folder: a folder born after the subscription started may
   * have no watch even when no create event was reported (parcel misses the watches of folders
   * made in quick succession: mkdir -p, an unpack), so the baseline is not trusted. With no birth
   * time (some file systems), nothing can be proven and the journal is never trusted. A folder on
   * a device the subscription did not cover is a mount made since — unless the mount table below
   * the root is as it was: then it is a Btrfs subvolume, watched like any folder of its file system.
   */
  checkFolder(st: fs.Stats): void {
    if (!(st.birthtimeMs > 0) || st.birthtimeMs >= this.subscribedAt - YOUNG_FOLDER_MS) this.dirCreated = true
    if (this.covered.devices.has(st.dev) || this.dirCreated) return
    if (mountsUnder(this.real) === this.covered.mounts) this.covered.devices.add(st.dev)
    else this.dirCreated = true
  }

  giveUp(why: string): void {
    this.gaveUp = true
    this.broken = true
    this.failure = why
  }

  /** Forget events (a full walk is about to record the truth). */
  reset(): void {
    this.dirty = new Set()
    this.dirCreated = false
  }

  get healthy(): boolean {
    return !this.broken && this.sub !== null
  }

  async stop(): Promise<void> {
    const s = this.sub
    this.sub = null
    live.get(this.real)?.delete(this)
    if (!s) return
    await s.unsubscribe().catch((err: Error) => {
      staleTrees.add(this.real)
      this.giveUp(`could not stop watching ${this.root}: ${err.message}`)
    })
  }
}
