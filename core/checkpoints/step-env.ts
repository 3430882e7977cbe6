// What every step of a restore works with (StepEnv), and how a step says it left its path alone.
import path from 'node:path'
import type { BlobStore } from './blobs'
import type { LinkProbe } from './link-probe'
import type { RootRuntime } from './roots'
import type { Entry } from './types'

/**
 * A step that would have to destroy something the restore must keep: a folder still holding files
 * the turn did not create (or the user kept), or a file the user kept where a folder must return.
 * The path is left as it is and reported as kept, never as a failure half-way.
 */
export class KeptInPlace extends Error {}

export interface StepEnv {
  roots: Map<string, RootRuntime>
  /** Per root: which folders above a step's path are links now (see link-probe.ts). */
  probes: Map<string, LinkProbe>
  blobs: BlobStore
  /** Temp-file tag of this restore, so recovery can find its leftovers. */
  tag: string
  /** Bytes written to the workspace (reported by the benchmark). */
  bytesWritten: { n: number }
  /** Test hooks (crash tests kill the process at chosen points). */
  hooks?: { beforeRename?: (tmp: string, target: string) => void }
  /**
   * Folders whose entries changed and still need an fsync (flushFolders). Why batched: an install
   * turn's restore removes thousands of files from a few hundred folders, and one folder fsync per
   * file was two thirds of its time. Nothing is committed before the flush, and a step whose
   * effect a power cut lost is redone by recovery (the journal is not committed yet).
   */
  dirty: Set<string>
  /** Real paths of the folders the steps write in (assertParentInside), forgotten when removed. */
  parents: Map<string, string>
  /**
   * Deletes checked in their own step (by `root:key`): what the file must still hold to be removed.
   * Why there and not in apply's re-check: the check is then a microsecond before the unlink, not a
   * whole install's deletes before it (an edit in between was deleted), and an install's restore
   * makes one pass over its files instead of two.
   */
  guards: Map<string, Entry>
  maxFileBytes: number
  /** Guarded deletes whose file was gone already: the restore did not touch them. */
  vanished: Set<string>
  /**
   * Folders (`root:key`) proven inside their root with no link above them, for the steps below
   * them: an install's restore asked the same few hundred folders for each of its thousands of
   * files (~3 µs each). Cleared by every rmdir, as `parents` and the probes forget theirs.
   */
  judged?: Set<string>
}

/** The folder of `abs` had an entry added, removed or renamed: fsync it before the commit. */
export const touchedFolder = (env: StepEnv, abs: string): void => void env.dirty.add(path.dirname(abs))
