// What a plan is made of, apart from how it is made (planner.ts) and who changed what
// (ownership.ts): both use these, so they live below both.
import type { BlobStore } from '../store/blobs'
import type { Records } from '../store/records'
import type { RootRuntime } from '../store/roots'
import type { SnapshotStore } from '../store/snapshots'
import type { Entry, TurnKey } from '../types'

/** The parts of the engine a plan reads. */
export interface EngineParts {
  roots: RootRuntime[]
  blobs: BlobStore
  snaps: SnapshotStore
  records: Records
  maxFileBytes: number
}

/** A path to consider: its target and expected states, and who last changed it. */
export interface Candidate {
  root: RootRuntime
  key: string
  target: Entry | undefined
  expected: Entry | undefined
  /** A later, still-applied turn changed it too (out-of-order undo). */
  laterTurn?: TurnKey
  /** Absent from the pre-image because the capture did not cover it (not because it did not exist). */
  uncovered?: boolean
  /** Changed while another session's turn was running on the same folders: maybe not this turn's. */
  otherTurn?: TurnKey
  /** Changed by another session's turn, by what its tools named: not this turn's, never touched. */
  ownedBy?: TurnKey
  /** Changed in this turn's window, but none of its tools wrote it (an editor, a build watcher). */
  outside?: boolean
  /** Written by a restore made during this turn's window (with `ownedBy` or `otherTurn`): which one, in words. */
  byRestore?: string
}
