// lstat of many paths on worker threads. Why: a capture after a small turn reads almost nothing,
// but it must look at every file once (size, mtime, inode), and on one thread those ~3 µs system
// calls are most of its time (~70 ms for 21,000 files). Git spreads the same work over threads
// (core.preloadIndex); so does this pool. Workers run a few lines of inline source (no file to
// bundle or ship) and only ever call lstat: they hold no state and see no store.
import os from 'node:os'
import { Worker } from 'node:worker_threads'
import { stopWorker } from './worker-stop'

/** Numbers per path in a result row: mode (with type bits), size, mtimeMs, ino, ctimeMs. Mode -1: gone. */
export const STAT_FIELDS = 5

// A batch arrives as folder prefixes, a count of names per folder, and the names, each list as one
// '\0'-joined string (file names cannot hold NUL; one string is far cheaper to pass than
// thousands, and the full paths are only ever built here). The result goes back as a transferred
// buffer, not a copy.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const fs = require('node:fs')
parentPort.on('message', (m) => {
  const prefixes = m.prefixes.split('\\0')
  const names = m.names.split('\\0')
  const out = new Float64Array(names.length * ${STAT_FIELDS})
  let i = 0
  for (let d = 0; d < prefixes.length; d++) {
    const prefix = prefixes[d]
    for (const end = i + m.counts[d]; i < end; i++) {
      const o = i * ${STAT_FIELDS}
      let st
      try { st = fs.lstatSync(prefix + names[i], { throwIfNoEntry: false }) } catch { st = undefined }
      if (!st) { out[o] = -1; continue }
      out[o] = st.mode; out[o + 1] = st.size; out[o + 2] = st.mtimeMs; out[o + 3] = st.ino; out[o + 4] = st.ctimeMs
    }
  }
  parentPort.postMessage({ id: m.id, buf: out.buffer }, [out.buffer])
})
`

/** Paths to lstat, grouped by folder: `counts[d]` names of `names` are in `prefixes[d]`. */
export interface StatBatch {
  /** Folder paths, each ending with a path separator. */
  prefixes: string[]
  counts: number[]
  names: string[]
}

interface Waiter {
  resolve: (rows: Float64Array) => void
  reject: (err: Error) => void
  worker: Worker
}

export function defaultPoolSize(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length
  return Math.max(1, Math.min(4, cores))
}

export class StatPool {
  private workers: Worker[] | null = null
  private turn = 0
  private seq = 0
  private readonly waiting = new Map<number, Waiter>()
  /** Set once a worker failed to start or died: callers then lstat on their own thread. */
  private broken = false

  constructor(readonly size: number = defaultPoolSize()) {}

  get usable(): boolean {
    return !this.broken
  }

  /** Start the workers now (they take a few tens of ms to boot), so the next walk need not wait. */
  warm(): void {
    if (this.broken) return
    try {
      this.start()
    } catch {
      this.broken = true
    }
  }

  private start(): Worker[] {
    if (this.workers) return this.workers
    const ws: Worker[] = []
    for (let i = 0; i < this.size; i++) {
      const w = new Worker(WORKER_SOURCE, { eval: true })
      // Idle workers must not keep a CLI or test process alive.
      w.unref()
      w.on('message', (m: { id: number; buf: ArrayBuffer }) => {
        const wait = this.waiting.get(m.id)
        this.waiting.delete(m.id)
        wait?.resolve(new Float64Array(m.buf))
      })
      const fail = (err: Error): void => {
        this.broken = true
        for (const [id, wait] of this.waiting) {
          if (wait.worker !== w) continue
          this.waiting.delete(id)
          wait.reject(err)
        }
      }
      w.on('error', fail)
      w.on('exit', (code) => fail(new Error(`stat worker exited with code ${code}`)))
      ws.push(w)
    }
    this.workers = ws
    return ws
  }

  /**
   * lstat a batch on the next worker (round robin); the promise gives STAT_FIELDS numbers per name
   * in the batch's order. Rejects if the worker dies; the caller then does the batch itself.
   */
  stat(batch: StatBatch): Promise<Float64Array> {
    if (this.broken) return Promise.reject(new Error('stat pool unavailable'))
    let ws: Worker[]
    try {
      ws = this.start()
    } catch (err) {
      this.broken = true
      return Promise.reject(err as Error)
    }
    const worker = ws[this.turn++ % ws.length]!
    const id = ++this.seq
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, worker })
      worker.postMessage({ id, prefixes: batch.prefixes.join('\0'), counts: batch.counts, names: batch.names.join('\0') })
    })
  }

  async close(): Promise<void> {
    const ws = this.workers
    this.workers = null
    this.broken = true
    if (ws) await Promise.all(ws.map(stopWorker))
  }
}

// One pool per process and size, shared by every open store: the app keeps a store open per
// project, and lstat work carries no state, so N projects need not mean N sets of threads.
const shared = new Map<number, { pool: StatPool; users: number }>()

/** The shared pool of `size` workers (a fresh one if the last one broke). Pair with releaseStatPool. */
export function acquireStatPool(size: number): StatPool {
  let s = shared.get(size)
  if (!s || !s.pool.usable) {
    // A broken pool stays with the stores that hold it (they walk on their own thread).
    s = { pool: new StatPool(size), users: 0 }
    shared.set(size, s)
  }
  s.users++
  return s.pool
}

/** A store is done with `pool`; the last user closes it. */
export async function releaseStatPool(pool: StatPool): Promise<void> {
  const s = shared.get(pool.size)
  if (!s || s.pool !== pool) return pool.close() // a broken pool that was replaced
  if (--s.users > 0) return
  shared.delete(pool.size)
  await pool.close()
}
