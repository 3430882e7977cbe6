// An install turn's restore deletes thousands of files, and each unlink waits on the kernel (the
// inode freed, the file system's journal). Done by the thread that checks them, they were most of
// the restore: 57 ms of 74 on a real node_modules of 3,460 files, against 48 ms for `rm -rf` of
// the same tree. Here the steps' thread still checks each file (where it is, the content guard)
// and hands the ones it proved on, in batches, to the hash worker's thread (hash-worker.ts), which
// unlinks them while the next ones are checked: two cores instead of one. When the worker is
// behind (it has QUEUED files it has not reached; a shared counter says how far it is, without a
// wait), the steps' thread unlinks the next file itself, so neither thread idles and the steps
// never wait in the middle of their deletes.
//
// Only plain deletes come here (restore-run.ts): a path no other step of the restore touches, so
// their order among themselves does not matter, and the pool is drained before any other step
// runs (an rmdir needs its folder's files gone). Each unlink is handed an absolute path (the
// process's working folder, folder-lane.ts, moves on while the worker works) with the inode its
// check saw: an absolute path follows a folder swapped for a link since, so the worker unlinks only
// while the path still names that inode. If the worker is gone, its batches are unlinked on the
// steps' thread the same way.
import fs from 'node:fs'
import { HashWorkerGone, REPLACED, type HashWorker, type UnlinkError } from './hash-worker'
import type { Step } from './journal'

/** Files per message to the worker: a message costs about what a few unlinks do. */
const BATCH = 64
/**
 * Files handed over and not yet unlinked, at most. Why so few: it bounds how long after its
 * content check a file is unlinked (a few hundred deletes, about 2 ms).
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
/** Which file a queued path must still name to be unlinked. */
type Identity = { ino: number; dev: number }

export class DeletePool {
  private batch: { at: string | Buffer; st: Identity; settle: Settle }[] = []
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
   * Queues the unlink of `at` (an absolute path), to be done only while it names the file `st` (the
   * lstat of its check); `settle` receives its error (or null: unlinked) on this thread, at the
   * latest when the pool is drained, and must not throw.
   */
  add(at: string | Buffer, st: Identity, settle: Settle): void {
    this.batch.push({ at, st, settle })
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
        batch.map((d) => d.st.ino),
        batch.map((d) => d.st.dev),
        this.progress,
      )
      .then(settled, (err) => {
        if (!(err instanceof HashWorkerGone)) throw err
        settled(unlinkHere(batch))
      })
      .catch((err) => void (this.failure ??= err))
      .finally(() => this.flying.delete(done))
    this.flying.add(done)
  }
}

/** The worker is gone: the batch is unlinked on this thread instead, as the worker would have. */
function unlinkHere(batch: { at: string | Buffer; st: Identity }[]): UnlinkError[] {
  const errors: UnlinkError[] = []
  batch.forEach(({ at, st }, i) => {
    try {
      const now = fs.lstatSync(at)
      if (now.ino !== st.ino || now.dev !== st.dev) throw Object.assign(new Error('replaced since its check'), { code: REPLACED })
      fs.unlinkSync(at)
    } catch (err) {
      errors.push({ i, message: (err as Error).message, code: (err as NodeJS.ErrnoException).code })
    }
  })
  return errors
}
