// What every step of a restore works with (StepEnv), and how a step says it left its path alone.
import path from 'node:path'
import type { BlobStore } from '../store/blobs'
import type { RootRuntime } from '../store/roots'
import type { Entry } from '../types'

/** Folder identities (`dev:ino`) by absolute path: the root, and the folders the re-check saw or a step made. */
export type FolderIds = Map<string, string>

/**
 * A step that would have to destroy something the restore must keep: a folder still holding files
 * the turn did not create (or the user kept), or a file the user kept where a folder must return.
 * The path is left as it is and reported as kept, never as a failure half-way.
 */
export class KeptInPlace extends Error {}

export interface StepEnv {
  roots: Map<string, RootRuntime>
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
  /**
   * The folders above the steps' paths as apply's re-check saw them, and those the steps made
   * (folder-chain.ts): every step compares the folders above its path with these, by device and
   * inode, right before it acts.
   */
  folders: FolderIds
  /**
   * What each path must hold right before its step acts (by `root:key`; null: nothing there): the
   * disk state apply's re-check found (for a file or link the turn made, the turn's after-state).
   * Why in the step and not only in the re-check: the check is then a moment before the unlink or
   * the rename, not a whole restore's steps before it (an edit or an autosave in between was
   * deleted or overwritten), and an install's restore makes one pass over its files instead of two.
   * Empty in recovery, whose steps are judged by safeToRedo.
   */
  guards: Map<string, Entry | null>
  /** Paths whose file, link or folder a step removed (or found gone): a later write there expects nothing. */
  cleared: Set<string>
  maxFileBytes: number
  /** Guarded deletes whose file was gone already: the restore did not touch them. */
  vanished: Set<string>
}

/** The folder of `abs` had an entry added, removed or renamed: fsync it before the commit. */
export const touchedFolder = (env: StepEnv, abs: string): void => void env.dirty.add(path.dirname(abs))
