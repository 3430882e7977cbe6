// An install turn's restore deletes thousands of files, and each unlink waits on the kernel (the
// inode freed, the file system's journal). Done by the thread that checks them, they were most of
// the restore: 57 ms of 74 on a real node_modules of 3,460 files, against 48 ms for `rm -rf` of
// the same tree. Here the steps' thread still judges where each file is (stepTarget: inside its
// root, no folder above it a link) and hands it on, in batches, with what its content guard
// expects, to the hash worker's thread (hash-worker.ts), which proves each file by its lstat (the
// ctime proof, stat-proof.ts) a moment before unlinking it. A file the lstat does not prove comes
// back: the steps' thread judges it by content and unlinks it itself, as it does every file it
// cannot hand on (no guard or one without a trusted ctime, a link, a case-insensitive root). When
// the worker is behind (it has QUEUED files it has not reached; a shared counter says how far it
// is, without a wait), the steps' thread checks and unlinks the next file itself, so both threads
// do the same work, neither idles and the steps never wait in the middle of their deletes.
//
// Only plain deletes come here (restore-run.ts): a path no other step of the restore touches, so
// their order among themselves does not matter, and the pool is drained before any other step
// runs (an rmdir needs its folder's files gone). The drain takes back what the worker has not
// reached (each file is claimed through a shared counter before either thread touches it) and does
// it as the worker would: the steps wait only for the files the worker is in the middle of, never
// for its queue, nor for another store's job it is busy with (the worker is the process's). Each
// unlink is handed an absolute path (the process's working folder, folder-lane.ts, is the steps'
// thread's own). If the worker is gone, what it claimed comes back unproved, to be judged and
// unlinked on the steps' thread.
import fs from 'node:fs'
import { GONE, HashWorkerGone, UNPROVEN, type HashWorker, type UnlinkError } from './hash-worker'
import type { Step } from './journal'
import { sameStat, type StatProof } from './stat-proof'

/** Files per message to the worker: a message costs about what a few unlinks do. */
const BATCH = 64
/**
 * Files handed over and not yet unlinked, at most. Why so few: it bounds how long after stepTarget
 * judged its folder a file is unlinked (a few hundred deletes, about 2 ms), and the results wait
 * on the steps' thread.
 */
const QUEUED = 256

/**
 * Below this many deletes a restore unlinks on its own thread: a message to the worker and back
 * costs more than a few unlinks, and a worker not started yet takes longer to start than a small
 * restore takes in all (one-file restores stay within milliseconds).
 */
export const POOLED_DELETES_FROM = 256

/** A pool for the steps' deletes when there are at least `from` of them, its worker started now. */
export function deletePoolFor(worker: HashWorker | null, steps: Step[], from = POOLED_DELETES_FROM, gate?: Int32Array): DeletePool | null {
  if (!worker?.usable) return null
  let n = 0
  for (const s of steps) if (s.op === 'unlink' && ++n >= from) break
  if (n < from) return null
  worker.warm()
  return new DeletePool(worker, gate)
}

type Settle = (err: NodeJS.ErrnoException | null) => void
interface Pending {
  at: string | Buffer
  proof: StatProof
  settle: Settle
}
/** A batch handed to the worker, and (shared with it) how many of its files have been claimed. */
interface Sent {
  files: Pending[]
  claim: Int32Array
  /**
   * The files taken back (1 at their index): done here, the worker's answer settles the others.
   * Not a count of the worker's first claims: it may claim a file between two of the drain's.
   */
  back: Uint8Array | null
}

export class DeletePool {
  private batch: Pending[] = []
  /** Batches the worker has not answered, each with the promise that settles on its answer. */
  private readonly flying = new Map<Sent, Promise<void>>()
  /** Files handed to the worker so far, and (shared with it) how many of them are done. */
  private sent = 0
  private readonly progress = new Int32Array(new SharedArrayBuffer(4))
  /** A batch that failed as a whole (not a file's unlink): thrown by drain, never left unhandled. */
  private failure: unknown = null

  /** `gate` (tests): the worker waits at its n-th claim until `gate[0]` is n or more (hash-worker.ts unlinkAll). */
  constructor(
    private readonly worker: HashWorker,
    private readonly gate?: Int32Array,
  ) {}

  /** The worker has QUEUED files it has not reached: the caller unlinks the next one itself. */
  get full(): boolean {
    return this.sent + this.batch.length - Atomics.load(this.progress, 0) >= QUEUED
  }

  /**
   * Queues the unlink of `at` (an absolute path), to be done only if its lstat proves it the file
   * of `proof`; `settle` receives its error (UNPROVEN: not proved, not touched;
   * GONE: no file there; null: unlinked) on this thread, at the latest when the pool is drained,
   * and must not throw.
   */
  add(at: string | Buffer, proof: StatProof, settle: Settle): void {
    this.batch.push({ at, proof, settle })
    if (this.batch.length >= BATCH) this.send()
  }

  /** Nothing queued that has not settled. */
  get idle(): boolean {
    return this.batch.length === 0 && this.flying.size === 0
  }

  /**
   * Resolves when every unlink queued has settled. What the worker has not reached is taken back
   * and done here, as the worker would (so the steps never wait behind its queue, nor behind
   * another store's job on it): only the files it is in the middle of are waited for.
   */
  async drain(): Promise<void> {
    const rest = this.batch
    this.batch = []
    for (const d of rest) d.settle(unlinkProved(d.at, d.proof))
    for (const b of this.flying.keys()) this.takeBack(b)
    while (this.flying.size) await Promise.race(this.flying.values())
    if (this.failure) throw this.failure
  }

  /**
   * Claims and does here every file of `b` the worker has not claimed. The worker may be claiming
   * too, in this batch or starting on it now: the files it claims, wherever they fall between the
   * drain's, are its own to settle, and the batch is waited for unless all of it was taken back.
   */
  private takeBack(b: Sent): void {
    const back = (b.back ??= new Uint8Array(b.files.length))
    let taken = 0
    for (let i: number; (i = Atomics.add(b.claim, 0, 1)) < b.files.length; taken++) {
      back[i] = 1
      const d = b.files[i]!
      d.settle(unlinkProved(d.at, d.proof))
    }
    if (taken === 0) return
    Atomics.add(this.progress, 0, taken)
    // A batch the worker never claimed a file of: its answer (when it gets to it) settles nothing.
    if (taken === b.files.length) this.flying.delete(b)
  }

  private send(): void {
    const b: Sent = { files: this.batch, claim: new Int32Array(new SharedArrayBuffer(4)), back: null }
    this.batch = []
    this.sent += b.files.length
    const settled = (errors: UnlinkError[]): void => {
      // Answered: nothing of it is taken back from now on.
      this.flying.delete(b)
      const failed = new Map(errors.map((e) => [e.i, e]))
      b.files.forEach((d, i) => {
        if (b.back?.[i]) return
        const e = failed.get(i)
        d.settle(e ? Object.assign(new Error(e.message), e) : null)
      })
    }
    const done = this.worker
      .unlinkAll(
        b.files.map((d) => d.at),
        proofsOf(b.files),
        this.progress,
        b.claim,
        this.gate,
      )
      .then(settled, (err) => {
        if (!(err instanceof HashWorkerGone)) throw err
        // What the worker claimed and may not have unlinked when it died: judged and unlinked on
        // this thread (what it never claimed is taken back by the drain).
        settled(b.files.map((_, i) => ({ i, message: 'the worker stopped before its delete', code: UNPROVEN })))
      })
      .catch((err) => void (workersPart(b) && (this.failure ??= err)))
      .finally(() => this.flying.delete(b))
    this.flying.set(b, done)
  }
}

/** Whether the worker may have claimed a file of `b` (not all of it was taken back). */
function workersPart(b: Sent): boolean {
  return b.back === null || b.back.includes(0)
}

/** The worker's unlink (hash-worker.ts), done on this thread: its outcome as the worker reports it. */
function unlinkProved(at: string | Buffer, proof: StatProof): NodeJS.ErrnoException | null {
  try {
    const st = fs.lstatSync(at, { throwIfNoEntry: false })
    if (!st) return Object.assign(new Error('gone before its delete'), { code: GONE })
    if (!sameStat(st, proof)) return Object.assign(new Error('not proved the same by its lstat'), { code: UNPROVEN })
    fs.unlinkSync(at)
    return null
  } catch (err) {
    return err as NodeJS.ErrnoException
  }
}

function proofsOf(batch: { proof: StatProof }[]): Float64Array {
  const out = new Float64Array(batch.length * 5)
  batch.forEach(({ proof: p }, i) => out.set([p.mode, p.size, p.mtimeMs, p.ctimeMs, p.ino], i * 5))
  return out
}
