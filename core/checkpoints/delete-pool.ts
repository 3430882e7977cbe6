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
// runs (an rmdir needs its folder's files gone). Each unlink is handed an absolute path (the
// process's working folder, folder-lane.ts, is the steps' thread's own). If the worker is gone,
// its batches come back unproved, to be judged and unlinked on the steps' thread.
import { HashWorkerGone, UNPROVEN, type HashWorker, type UnlinkError } from './hash-worker'
import type { Step } from './journal'

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
export function deletePoolFor(worker: HashWorker | null, steps: Step[], from = POOLED_DELETES_FROM): DeletePool | null {
  if (!worker?.usable) return null
  let n = 0
  for (const s of steps) if (s.op === 'unlink' && ++n >= from) break
  if (n < from) return null
  worker.warm()
  return new DeletePool(worker)
}

type Settle = (err: NodeJS.ErrnoException | null) => void
/** What a file must be, by its lstat, to be unlinked (a content guard's stat fields). */
export interface Proof {
  mode: number
  size: number
  mtimeMs: number
  ctimeMs: number
  ino: number
}

export class DeletePool {
  private batch: { at: string | Buffer; proof: Proof; settle: Settle }[] = []
  private readonly flying = new Set<Promise<void>>()
  /** Files handed to the worker so far, and (shared with it) how many of them it has done. */
  private sent = 0
  private readonly progress = new Int32Array(new SharedArrayBuffer(4))
  /** A batch that failed as a whole (not a file's unlink): thrown by drain, never left unhandled. */
  private failure: unknown = null

  constructor(private readonly worker: HashWorker) {}

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
  add(at: string | Buffer, proof: Proof, settle: Settle): void {
    this.batch.push({ at, proof, settle })
    if (this.batch.length >= BATCH) this.send()
  }

  /** Nothing queued that has not settled. */
  get idle(): boolean {
    return this.batch.length === 0 && this.flying.size === 0
  }

  /** Resolves when every unlink queued has settled. */
  async drain(): Promise<void> {
    if (this.batch.length) this.send()
    while (this.flying.size) await Promise.race(this.flying)
    if (this.failure) throw this.failure
  }

  private send(): void {
    const batch = this.batch
    this.batch = []
    this.sent += batch.length
    const settled = (errors: UnlinkError[]): void => {
      let next = 0
      errors.sort((a, b) => a.i - b.i)
      batch.forEach((d, i) => {
        const e = errors[next]?.i === i ? errors[next++]! : null
        d.settle(e ? Object.assign(new Error(e.message), e) : null)
      })
    }
    const done = this.worker
      .unlinkAll(
        batch.map((d) => d.at),
        proofsOf(batch),
        this.progress,
      )
      .then(settled, (err) => {
        if (!(err instanceof HashWorkerGone)) throw err
        // What the worker had not unlinked when it died: judged and unlinked on this thread.
        settled(batch.map((_, i) => ({ i, message: 'the worker stopped before its delete', code: UNPROVEN })))
      })
      .catch((err) => void (this.failure ??= err))
      .finally(() => this.flying.delete(done))
    this.flying.add(done)
  }
}

function proofsOf(batch: { proof: Proof }[]): Float64Array {
  const out = new Float64Array(batch.length * 5)
  batch.forEach(({ proof: p }, i) => out.set([p.mode, p.size, p.mtimeMs, p.ctimeMs, p.ino], i * 5))
  return out
}
