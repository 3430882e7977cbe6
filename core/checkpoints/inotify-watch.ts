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
import fs from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { JournalState, type ChangeWatcher } from './change-journal'

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
let dirty = new Set()
let dirCreated = false
let failed = null
const waiting = new Set()
const early = new Set()
const watches = []
function reply(name) {
  parentPort.postMessage({ barrier: name, dirty: [...dirty], dirCreated, failed })
  dirty = new Set()
  dirCreated = false
}
function onEvent(dir, type, raw) {
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
  // A folder created or moved in has no watch: the engine walks in full and subscribes afresh.
  if (type === 'rename' && !dirCreated) {
    try { if (fs.lstatSync(abs).isDirectory()) dirCreated = true } catch {}
  }
}
function watchTree(dir) {
  try {
    const w = fs.watch(dir, { persistent: true, encoding: 'buffer' }, (type, name) => onEvent(dir, type, name))
    w.on('error', (e) => { failed = failed || 'watch error on ' + dir + ': ' + (e.code || e.message) })
    watches.push(w)
  } catch (e) {
    failed = failed || 'cannot watch ' + dir + ': ' + (e.code || e.message)
    return
  }
  let entries
  try { entries = fs.readdirSync(dir, { withFileTypes: true }) } catch (e) { failed = failed || 'cannot list ' + dir; return }
  for (const d of entries) {
    if (!d.isDirectory() || skipNames.has(d.name)) continue
    const sub = dir + path.sep + d.name
    if (!skipAbs.has(sub)) watchTree(sub)
  }
}
watchTree(workerData.root)
parentPort.postMessage({ ready: true, failed, watches: watches.length })
parentPort.on('message', (m) => {
  if (!m || typeof m.barrier !== 'string') return
  if (early.delete(m.barrier)) reply(m.barrier)
  else waiting.add(m.barrier)
})
`

interface BarrierReply {
  barrier: string
  dirty: string[]
  dirCreated: boolean
  failed: string | null
}

export class InotifyWatcher extends JournalState implements ChangeWatcher {
  private worker: Worker | null = null
  private seq = 0
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
    return (await w.subscribe()) ? w : null
  }

  /** Starts a worker that watches the whole tree; resolves once every folder has its watch. */
  private subscribe(): Promise<boolean> {
    this.subscribedAt = Date.now()
    let worker: Worker
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { root: this.root, skip: this.skip } })
    } catch {
      return Promise.resolve(false)
    }
    worker.unref()
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
      worker.on('message', (m: { ready?: boolean; failed?: string | null } & Partial<BarrierReply>) => {
        if (m.ready) resolve(!m.failed)
        else if (typeof m.barrier === 'string') this.waiting.get(m.barrier)?.(m as BarrierReply)
      })
    })
  }

  async resubscribe(): Promise<void> {
    await this.stop()
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
    const name = `${BARRIER_PREFIX}${process.pid}-${++this.seq}.retake-w.tmp`
    const file = path.join(this.root, name)
    const seen = new Promise<BarrierReply | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), BARRIER_TIMEOUT_MS)
      this.waiting.set(name, (m) => {
        clearTimeout(timer)
        resolve(m)
      })
    })
    worker.postMessage({ barrier: name })
    try {
      fs.writeFileSync(file, '')
    } catch {
      this.waiting.delete(name)
      return false
    }
    const m = await seen
    this.waiting.delete(name)
    fs.rmSync(file, { force: true })
    if (!m || m.failed) this.broken = true
    if (m) {
      for (const p of m.dirty) this.dirty.add(p)
      if (m.dirCreated) this.dirCreated = true
    }
    return !this.broken
  }

  get healthy(): boolean {
    return !this.broken && this.worker !== null
  }

  async stop(): Promise<void> {
    const w = this.worker
    this.worker = null
    if (w) await w.terminate().catch(() => undefined)
  }
}
