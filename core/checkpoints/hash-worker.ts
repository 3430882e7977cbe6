// A worker thread that copies large files into the store and hashes them, so a capture's large
// files (a few dozen in a dependency tree, but most of its bytes) are done on a second core while
// this thread reads, hashes and packs the small ones (hash-phase.ts runs the two side by side).
// The worker runs a few lines of inline source (no file to bundle or ship), holds no state and
// sees no store: it is given a source path and a temp path, and answers with the hash and size of
// what it copied; the caller (blobs.ts) decides what becomes of the copy, exactly as when it makes
// the copy itself (large-blobs.ts). If the worker cannot start or dies, the caller does the job.
import fs from 'node:fs'
import { Worker } from 'node:worker_threads'
import { stopWorker } from './worker-stop'

/**
 * An unlink's outcome codes from the worker (delete-pool.ts): the file does not hold what the plan
 * saw by its lstat alone (the steps' thread then judges it by content), or it was gone before the
 * worker looked (the restore did not delete it).
 */
export const UNPROVEN = 'RETAKE_UNPROVEN'
export const GONE = 'RETAKE_GONE'

// Progress is posted every 4 MiB hashed, so a long copy reports progress as before.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const crypto = require('node:crypto')
const fs = require('node:fs')
const CHUNK = 1 << 20
const UNPROVEN = ${JSON.stringify(UNPROVEN)}
const GONE = ${JSON.stringify(GONE)}
const S_IFMT = ${fs.constants.S_IFMT}
const S_IFREG = ${fs.constants.S_IFREG}
const buf = Buffer.allocUnsafe(CHUNK)
const asPath = (p) => (typeof p === 'string' ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength))
function hash(id, file) {
  const h = crypto.createHash('sha256')
  const fd = fs.openSync(file, 'r')
  let size = 0
  let unreported = 0
  try {
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null)
      if (n === 0) break
      h.update(buf.subarray(0, n))
      size += n
      unreported += n
      if (unreported >= 4 * CHUNK) {
        parentPort.postMessage({ id, progress: unreported })
        unreported = 0
      }
    }
  } finally {
    fs.closeSync(fd)
  }
  if (unreported) parentPort.postMessage({ id, progress: unreported })
  return { hash: h.digest('hex'), size }
}
parentPort.on('message', (m) => {
  try {
    if (m.unlink) {
      const errors = []
      const g = m.proofs
      const n = m.unlink.length
      // Each file claimed first (the steps' thread takes back what is not claimed: delete-pool.ts).
      for (let i; (i = Atomics.add(m.claim, 0, 1)) < n; ) {
        // A test's hold: the worker counts its claims (gate[1]) and goes on with its n-th claim
        // only once gate[0] is n or more.
        if (m.gate) {
          const claims = Atomics.add(m.gate, 1, 1) + 1
          Atomics.notify(m.gate, 1)
          for (let g; (g = Atomics.load(m.gate, 0)) < claims; ) Atomics.wait(m.gate, 0, g)
        }
        const p = m.unlink[i]
        try {
          const at = asPath(p)
          const o = i * 5
          // The file the plan saw, proved by its lstat as the steps' thread would (stat-proof.ts
          // provenSame: mode, size, mtime, ctime, inode), a moment before its unlink.
          const st = fs.lstatSync(at, { throwIfNoEntry: false })
          if (!st) throw Object.assign(new Error('gone before its delete'), { code: GONE })
          const same = (st.mode & S_IFMT) === S_IFREG && (st.mode & 0o7777) === g[o] && st.size === g[o + 1] && st.mtimeMs === g[o + 2] && st.ctimeMs === g[o + 3] && st.ino === g[o + 4]
          if (!same) throw Object.assign(new Error('not proved the same by its lstat'), { code: UNPROVEN })
          fs.unlinkSync(at)
        } catch (err) {
          errors.push({ i, message: err.message, code: err.code, errno: err.errno, syscall: err.syscall })
        }
        Atomics.add(m.progress, 0, 1)
      }
      parentPort.postMessage({ id: m.id, result: errors })
    } else if (m.tmp) {
      fs.copyFileSync(asPath(m.src), m.tmp, fs.constants.COPYFILE_EXCL)
      fs.chmodSync(m.tmp, 0o600)
      parentPort.postMessage({ id: m.id, result: hash(m.id, m.tmp) })
    } else parentPort.postMessage({ id: m.id, result: hash(m.id, asPath(m.src)) })
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: { message: err.message, code: err.code, errno: err.errno, syscall: err.syscall } })
  }
})
`

/** The worker itself failed (not the file operation): the caller does the job on its own thread. */
export class HashWorkerGone extends Error {}

/** An unlink the worker could not do: its index in the batch, and the error's fields. */
export interface UnlinkError {
  i: number
  message: string
  code?: string
}

interface Job {
  resolve: (r: unknown) => void
  reject: (err: Error) => void
  onBytes?: (n: number) => void
}

export class HashWorker {
  private worker: Worker | null = null
  private seq = 0
  private readonly jobs = new Map<number, Job>()
  private broken = false

  get usable(): boolean {
    return !this.broken
  }

  private start(): Worker {
    if (this.worker) return this.worker
    const w = new Worker(WORKER_SOURCE, { eval: true })
    w.unref() // an idle worker must not keep a CLI or test process alive
    w.on('message', (m: { id: number; progress?: number; result?: unknown; error?: { message: string; code?: string } }) => {
      const job = this.jobs.get(m.id)
      if (!job) return
      if (m.progress !== undefined) return job.onBytes?.(m.progress)
      this.jobs.delete(m.id)
      if (this.jobs.size === 0) w.unref()
      if (m.result !== undefined) job.resolve(m.result)
      else job.reject(Object.assign(new Error(m.error?.message ?? 'hash worker failed'), m.error))
    })
    const fail = (err: Error): void => {
      this.broken = true
      this.worker = null
      for (const job of this.jobs.values()) job.reject(new HashWorkerGone(err.message))
      this.jobs.clear()
    }
    w.on('error', fail)
    w.on('exit', (code) => fail(new Error(`hash worker exited with code ${code}`)))
    this.worker = w
    return w
  }

  /**
   * SHA-256 and size of `src`; with `tmp`, of a copy of it made first at `tmp` (a new file, 0600).
   * File errors reject with their code (ENOSPC, ENOENT …); a dead worker rejects with HashWorkerGone.
   */
  run(src: string | Buffer, tmp: string | null, onBytes?: (n: number) => void): Promise<{ hash: string; size: number }> {
    return this.post({ src, tmp }, onBytes) as Promise<{ hash: string; size: number }>
  }

  /** Starts the worker ahead of its first job (a thread takes some milliseconds to come up). */
  warm(): void {
    if (!this.broken) this.start()
  }

  private post(job: object, onBytes?: (n: number) => void): Promise<unknown> {
    let w: Worker
    try {
      if (this.broken) throw new Error('hash worker unavailable')
      w = this.start()
    } catch (err) {
      this.broken = true
      return Promise.reject(new HashWorkerGone((err as Error).message))
    }
    const id = ++this.seq
    // Referenced while a job runs: the capture awaiting it must not see the process exit.
    w.ref()
    return new Promise((resolve, reject) => {
      this.jobs.set(id, { resolve, reject, onBytes })
      w.postMessage({ id, ...job })
    })
  }

  /**
   * Unlinks `paths` one after another on the worker's thread, each only if its lstat proves it the
   * file of `proofs[5i..5i+4]` (mode bits, size, mtimeMs, ctimeMs, inode) — else its
   * error's code is UNPROVEN (GONE: no file there) — adding 1 to `progress[0]` after each (shared
   * memory: the caller sees how far the worker is without waiting for its answer); answers with the
   * ones that failed (their index and error). Each file is claimed first by adding 1 to `claim[0]`
   * (shared): an index the caller claimed before the worker did is the caller's, not done here.
   * `gate` (tests): at each file it claims, the worker adds 1 to `gate[1]` (n, its claims so far,
   * with this batch's and earlier ones') and waits until `gate[0]` is n or more. A dead worker
   * rejects with HashWorkerGone.
   */
  unlinkAll(paths: (string | Buffer)[], proofs: Float64Array, progress: Int32Array, claim: Int32Array, gate?: Int32Array): Promise<UnlinkError[]> {
    return this.post({ unlink: paths, proofs, progress, claim, gate }) as Promise<UnlinkError[]>
  }

  async close(): Promise<void> {
    const w = this.worker
    this.worker = null
    this.broken = true
    if (w) await stopWorker(w)
  }
}

// One worker per process, shared by every open store (a worker holds no state, and only one
// capture runs its large files at a time per store).
let shared: { worker: HashWorker; users: number } | null = null

/** The process's hash worker (a fresh one if the last one broke). Pair with releaseHashWorker. */
export function acquireHashWorker(): HashWorker {
  if (!shared || !shared.worker.usable) shared = { worker: new HashWorker(), users: 0 }
  shared.users++
  return shared.worker
}

/** A store is done with `worker`; the last user stops it. */
export async function releaseHashWorker(worker: HashWorker): Promise<void> {
  if (!shared || shared.worker !== worker) return worker.close() // a broken one that was replaced
  if (--shared.users > 0) return
  shared = null
  await worker.close()
}
