// When a stat proves a file unchanged, so a restore need not read it. Why: the restore of an install
// turn deletes thousands of files, and the conflict guard would hash each of them three times
// (plan, re-check under the lock, the restore's own pre-capture).
//
// The proof is the inode's change time. Every change to a file's content, mode, owner or links
// moves its ctime to the kernel's clock, and no call sets ctime back (utimes sets mtime and moves
// ctime to now; only a change of the system clock could). So when the ctime, mtime, size, inode and
// mode a capture recorded together with the hash it read are all still there, the content is the
// one it hashed — provided no later write could land in the same timestamp tick as the recorded
// ctime. That is the racy rule (git's, on ctime): a capture records `ctimeMs` only when the file's
// ctime is older than the capture's start by more than the file system's timestamp granularity
// (`ctimeMarginMs`). A file without it, or whose stat differs in any field, is hashed as before.
import fs from 'node:fs'
import type { Entry } from '../types'

// Linux statfs magic numbers of local file systems with nanosecond timestamps taken from the
// kernel's coarse clock (one tick: 10 ms at the slowest HZ): ext2/3/4, XFS, Btrfs, tmpfs, F2FS, ZFS.
const FINE_LOCAL_FS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0xf2f52010, 0x2fc12fc1])

/**
 * How much older than a capture a recorded time must be to be trusted where nothing finer is known:
 * more than the coarsest timestamp granularity in use (FAT: 2 s) and any coarse kernel clock (git's
 * racy rule), so a later change in the same tick cannot leave the same times.
 */
export const RACY_MARGIN_MS = 3000

/** Two ticks of the slowest kernel clock: a ctime this much older than a stat cannot recur. */
export const FINE_CTIME_MARGIN_MS = 20

/**
 * How much older than a capture's start a ctime must be to be trusted. Everywhere else (FAT's 2 s
 * times, network file systems whose times come from another machine, platforms not measured) the
 * margin of the mtime rule: 3 s.
 */
export function ctimeMarginMs(fsType: number | undefined, platform: string = process.platform): number {
  return platform === 'linux' && fsType !== undefined && FINE_LOCAL_FS.has(fsType) ? FINE_CTIME_MARGIN_MS : RACY_MARGIN_MS
}

/** The statfs type of a root, or undefined where it cannot be had. */
export function fsTypeOf(abs: string): number | undefined {
  try {
    return fs.statfsSync(abs).type
  } catch {
    return undefined
  }
}

/** The ctime to record with a freshly read file's hash, or undefined when it is racy. */
export function trustedCtime(st: fs.Stats, trustBefore: number): number | undefined {
  return st.ctimeMs < trustBefore ? st.ctimeMs : undefined
}

/** Can an lstat prove a file still holds `recorded`'s content (a file's, hashed, ctime trusted)? */
export function provable(recorded: Entry | undefined): recorded is Entry & { ctimeMs: number } {
  return !!recorded && recorded.type === 'file' && !!recorded.hash && recorded.ctimeMs !== undefined
}

/** The fields of an lstat that prove a file. */
export interface StatProof {
  mode: number
  size: number
  mtimeMs: number
  ctimeMs: number
  ino: number
}

/** Does this lstat prove the file still holds the content `recorded` was hashed from? */
export function provenSame(st: StatProof, recorded: Entry | undefined): boolean {
  return provable(recorded) && sameStat(st, recorded)
}

/** A plain file with `proof`'s mode bits, size, mtime, ctime and inode (`proof`: a provable entry's). */
export function sameStat(st: StatProof, proof: StatProof): boolean {
  return (
    (st.mode & fs.constants.S_IFMT) === fs.constants.S_IFREG &&
    st.ctimeMs === proof.ctimeMs &&
    st.mtimeMs === proof.mtimeMs &&
    st.size === proof.size &&
    st.ino === proof.ino &&
    (st.mode & 0o7777) === proof.mode
  )
}
