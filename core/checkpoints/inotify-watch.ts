// The change journal on Linux: one inotify watch per folder, held by a worker thread of its own.
// Why not @parcel/watcher here: it delivers events through a debouncer that waits 50 ms after an
// event before calling back (MIN_WAIT_TIME in its Debounce.cc), so the barrier a watched capture
// must wait for (watch.ts) cost 51 ms of a 55 ms capture, the whole distance to the target.
// Node's fs.watch is inotify itself, with no batching: the barrier's event arrives in about a
// millisecond. The same rules as watch.ts hold (barrier, baseline, any new folder → full scan).
//
// Why a worker: the kernel queues at most max_queued_events (16,384) events per inotify instance and
// drops the rest; a worker thread that does nothing but read them keeps the queue drained while the
// main thread is busy (a long capture, the window), as parcel's own thread does. A folder that cannot
// be watched (no permission, the watch limit) makes the watcher unhealthy: full scans only.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { JournalState, LOCAL_FS_TYPES, type ChangeWatcher } from './change-journal'
import { stopWorker } from './worker-stop'

const BARRIER_TIMEOUT_MS = 2000
const BARRIER_PREFIX = '.retake-barrier-'

// The worker watches every folder under the root, each before it is listed (a folder made after
// its parent's listing is reported by the parent's watch), skipping the folders a walk never
// enters (.git, .hg, .svn) and the store. It keeps the paths with events and sends them when the
// barrier file it was told about shows up: inotify delivers one instance's events in order, so
// every change made before the barrier file was created is in that message.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const fs = require('node:fs')
const path = require('node:path')
const PREFIX = ${JSON.stringify(BARRIER_PREFIX)}
const skipNames = new Set(['.git', '.hg', '.svn'])
const skipAbs = new Set(workerData.skip)
const localFs = new Set(workerData.localFs)
const rootDev = fs.statSync(workerData.root).dev
// The kernel keeps at most this many events per inotify instance and drops the rest with one
// IN_Q_OVERFLOW that libuv discards (its wd is -1): silent. But the events queued when it overflows
// are all delivered first, and the queue never holds two barriers (the engine waits for one before
// it makes the next), so an overflow means the two last intervals between barriers delivered at
// least this many events. Counting half of it leaves room for events that reach no callback.
let queueLimit = 16384
try { queueLimit = Number(fs.readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8')) || queueLimit } catch {}
let dirty = new Set()
let dirCreated = false
let failed = null
let permanent = false
let count = 0
let prevCount = 0
// Files with more than one name: a write through a name outside the watched folders (a hard link
// from elsewhere, e.g. a package manager's store) reaches no watch here, so these are re-read by
// every watched capture (an lstat each, which sees the ctime move).
const linked = new Set()
const waiting = new Set()
const early = new Set()
const watches = new Map()
const devices = new Set([rootDev])
function reply(name) {
  if (prevCount + count >= queueLimit / 2) failed = failed || (prevCount + count) + ' events since the capture before last: the kernel may have dropped some (max_queued_events ' + queueLimit + ')'
  prevCount = count
  count = 0
  parentPort.postMessage({ barrier: name, dirty: [...dirty], linked: [...linked], dirCreated, failed, permanent })
  dirty = new Set()
  dirCreated = false
}
function giveUp(why) {
  failed = failed || why
  permanent = true
}
function noteLinks(abs, st) {
  if (st && !st.isDirectory() && st.nlink > 1) linked.add(abs)
  else linked.delete(abs)
}
function onEvent(dir, type, raw) {
  count++
  if (!Buffer.isBuffer(raw)) { failed = failed || 'an event without a name'; return }
  // A name that is not UTF-8 has no faithful string here: the engine must walk to see it.
  const name = raw.toString('utf8')
  if (!Buffer.from(name, 'utf8').equals(raw)) { failed = failed || 'a name that is not UTF-8'; return }
  if (name.startsWith(PREFIX)) {
    if (waiting.delete(name)) reply(name)
    else { if (early.size > 64) early.clear(); early.add(name) }
    return
  }
  const abs = dir + path.sep + name
  dirty.add(abs)
  let st = null
  try { st = fs.lstatSync(abs) } catch {}
  noteLinks(abs, st)
  // A folder created or moved in has no watch: the engine walks in full and subscribes afresh.
  if (type === 'rename' && st && st.isDirectory()) dirCreated = true
}
function watchTree(dir) {
  try {
    // A file system mounted inside the root: fine if local, else its changes may never reach us.
    const st = fs.lstatSync(dir)
    if (st.dev !== rootDev && !localFs.has(Number(fs.statfsSync(dir).type))) return giveUp(dir + ' is on a file system whose changes inotify may not see')
    devices.add(st.dev)
    const w = fs.watch(dir, { persistent: true, encoding: 'buffer' }, (type, name) => onEvent(dir, type, name))
    w.on('error', (e) => { failed = failed || 'watch error on ' + dir + ': ' + (e.code || e.message) })
    watches.set(dir, w)
  } catch (e) {
    if (e.code === 'ENOSPC') giveUp('cannot watch ' + dir + ': the inotify watch limit (fs.inotify.max_user_watches) is reached')
    else failed = failed || 'cannot watch ' + dir + ': ' + (e.code || e.message)
    return
  }
  let entries
  try { entries = fs.readdirSync(dir, { withFileTypes: true }) } catch (e) { failed = failed || 'cannot list ' + dir; return }
  for (const d of entries) {
    const sub = dir + path.sep + d.name
    if (!d.isDirectory()) {
      if (d.isFile()) try { noteLinks(sub, fs.lstatSync(sub)) } catch {}
      continue
    }
    if (skipNames.has(d.name) || skipAbs.has(sub)) continue
    watchTree(sub)
    if (failed) return
  }
}
watchTree(workerData.root)
parentPort.postMessage({ ready: true, failed, permanent, watches: watches.size, devices: [...devices] })
parentPort.on('message', (m) => {
  if (m && Array.isArray(m.unwatch)) {
    for (const dir of m.unwatch) { const w = watches.get(dir); if (w) { w.close(); watches.delete(dir) } }
    parentPort.postMessage({ unwatched: m.unwatchId })
    return
  }
  if (!m || typeof m.barrier !== 'string') return
  if (early.delete(m.barrier)) reply(m.barrier)
  else waiting.add(m.barrier)
})
`

/**
 * The mounts at or below a folder, from this process's mount table (one small read), compared
 * between subscription and capture. Mounts elsewhere (a container starting) do not count.
 */
export function mountsUnder(realRoot: string, table = readMountTable()): string {
  // Field 5 is the mount point, with space, tab, newline and backslash written as octal escapes.
  const unescape = (p: string) => p.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)))
  return table
    .split('\n')
    .filter((line) => {
      const point = line.split(' ')[4]
      if (point === undefined) return false
      const p = unescape(point)
      return p === realRoot || p.startsWith(realRoot.endsWith('/') ? realRoot : realRoot + '/')
    })
    .join('\n')
}

function readMountTable(): string {
  try {
    return fs.readFileSync('/proc/self/mountinfo', 'utf8')
  } catch {
    return ''
  }
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p)
  } catch {
    return p
  }
}

interface BarrierReply {
  barrier: string
  dirty: string[]
  linked: string[]
  dirCreated: boolean
  failed: string | null
  permanent: boolean
}

export class InotifyWatcher extends JournalState implements ChangeWatcher {
  private worker: Worker | null = null
  private mounts = ''
  private seq = 0
  /**
   * Names this journal's barriers: two stores can watch one folder (an extra folder shared by two
   * projects) in one process, and a barrier taken for another's would hand over events too early.
   */
  private readonly tag = `${process.pid}-${randomBytes(6).toString('hex')}`
  private readonly waiting = new Map<string, (m: BarrierReply | null) => void>()

  private constructor(
    readonly root: string,
    private readonly skip: string[],
  ) {
    super()
  }

  static async start(root: string, ignoreAbs: string[]): Promise<InotifyWatcher | null> {
    const w = new InotifyWatcher(
      root,
      ignoreAbs.filter((a) => a.startsWith(root + path.sep)),
    )
    if (await w.subscribe()) return w
    await w.stop() // its worker holds an inotify instance (at most 128 per user by default)
    return null
  }

  /** Starts a worker that watches the whole tree; resolves once every folder has its watch. */
  private subscribe(): Promise<boolean> {
    this.subscribedAt = Date.now()
    this.mounts = mountsUnder(realOr(this.root))
    let worker: Worker
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { root: this.root, skip: this.skip, localFs: LOCAL_FS_TYPES } })
    } catch {
      return Promise.resolve(false)
    }
    this.worker = worker
    return new Promise<boolean>((resolve) => {
      const lost = (): void => {
        this.broken = true
        resolve(false)
        for (const done of this.waiting.values()) done(null)
      }
      worker.on('error', lost)
      worker.on('exit', () => {
        if (this.worker === worker) lost()
      })
      worker.on('message', (m: { ready?: boolean; failed?: string | null; devices?: number[]; unwatched?: string } & Partial<BarrierReply>) => {
        if (m.failed) this.failure = m.failed
        if (m.permanent) this.gaveUp = true
        if (m.devices) this.devices = new Set(m.devices)
        if (m.ready) resolve(!m.failed)
        else if (typeof m.barrier === 'string') this.waiting.get(m.barrier)?.(m as BarrierReply)
        else if (typeof m.unwatched === 'string') this.waiting.get(m.unwatched)?.(m as BarrierReply)
      })
    }).then((ok) => {
      // Once ready, and after the listeners (adding a 'message' listener refs a worker again): an
      // idle journal must not keep a CLI, a test or a child process alive. Barriers ref it meanwhile.
      worker.unref()
      return ok
    })
  }

  /** Starts afresh, unless the root cannot be watched faithfully at all (gaveUp): full walks then. */
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

  /** Wait until every change made before this call has been delivered (see WORKER_SOURCE). */
  async barrier(): Promise<boolean> {
    const worker = this.worker
    if (this.broken || !worker) return false
    const name = `${BARRIER_PREFIX}${this.tag}-${++this.seq}.retake-w.tmp`
    const file = path.join(this.root, name)
    const seen = new Promise<BarrierReply | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), BARRIER_TIMEOUT_MS)
      this.waiting.set(name, (m) => {
        clearTimeout(timer)
        resolve(m)
      })
    })
    worker.ref()
    worker.postMessage({ barrier: name })
    try {
      fs.writeFileSync(file, '')
    } catch {
      this.waiting.delete(name)
      worker.unref()
      return false
    }
    const m = await seen
    worker.unref()
    this.waiting.delete(name)
    fs.rmSync(file, { force: true })
    // A mount made since the subscription (anywhere: mounts make no event) may cover a folder of the
    // root with a file system no watch is on: walk and subscribe afresh.
    if (mountsUnder(realOr(this.root)) !== this.mounts) this.dirCreated = true
    if (!m || m.failed) this.broken = true
    if (m?.failed) this.failure = m.failed
    if (m?.permanent) this.gaveUp = true
    if (m) {
      for (const p of m.dirty) this.dirty.add(p)
      for (const p of m.linked) this.dirty.add(p)
      if (m.dirCreated) this.dirCreated = true
    }
    return !this.broken
  }

  /**
   * Stop watching folders a restore is about to remove (absolute paths as the worker names them).
   * Why: every delete in a watched folder queues an event the worker must wake for, and removing a
   * watched folder costs more again; an install's restore spent ~10–15 ms of its ~90 ms of deletes
   * on them. Its deletes are recorded by the restore's own capture instead (restore-watch.ts).
   * Resolves once the worker has closed those watches; false when it could not be asked.
   */
  async unwatch(dirs: string[]): Promise<boolean> {
    const worker = this.worker
    if (this.broken || !worker || !dirs.length) return false
    const id = `unwatch-${++this.seq}`
    const done = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), BARRIER_TIMEOUT_MS)
      this.waiting.set(id, (m) => {
        clearTimeout(timer)
        resolve(m !== null)
      })
    })
    worker.ref()
    worker.postMessage({ unwatch: dirs, unwatchId: id })
    const ok = await done
    worker.unref()
    this.waiting.delete(id)
    return ok
  }

  get healthy(): boolean {
    return !this.broken && this.worker !== null
  }

  async stop(): Promise<void> {
    const w = this.worker
    this.worker = null
    if (w) await stopWorker(w).catch(() => undefined)
  }
}
