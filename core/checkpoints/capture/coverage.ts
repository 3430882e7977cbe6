// What a capture covered. A path the turn's pre-image does not hold was either absent before the
// turn or not checkpointed at all (excluded by a .gitignore or the user's patterns then, or in a
// folder that was not a root yet). Only the first may be deleted by a restore: a turn that rewrites
// .gitignore, or a user who edits exclude rules mid-turn, must never make an untracked file look
// "created by the turn". Judged with the rules in force at the capture: the user's patterns are
// stored with the turn record, and each .gitignore is read from the pre-image itself.
import ignore from 'ignore'
import type { Ignore } from 'ignore'
import type { BlobStore } from '../store/blobs'
import { BUILTIN_EXCLUDES, BUILTIN_MATCHER, excludedByLevels } from '../store/excludes'
import { parentKey } from '../store/paths'
import type { RootCoverage } from '../store/records'
import type { RootState } from '../store/snapshot-deltas'

interface Level {
  base: string
  ig: Ignore
}
/** A .gitignore the capture read whose rules are unknown now (content over the cap or lost). */
const UNKNOWN = 'unknown'

/** Answers "did the capture cover this path?" for one root of one pre-image; caches per folder. */
export class CaptureCoverage {
  private readonly levels = new Map<string, Level | null | typeof UNKNOWN>()
  private readonly folders = new Map<string, Level[] | null>()
  private readonly base: Level

  constructor(
    private readonly rules: RootCoverage,
    private readonly pre: RootState,
    private readonly blobs: Pick<BlobStore, 'read'>,
  ) {
    this.base = { base: '', ig: rules.excludes.length ? ignore().add(BUILTIN_EXCLUDES).add(rules.excludes) : BUILTIN_MATCHER }
  }

  /** True when the capture would have recorded `key` had it existed (no rule excluded it or a parent). */
  covers(key: string, isDir: boolean): boolean {
    const levels = this.inside(parentKey(key))
    return levels !== null && !excludedByLevels(levels, key, isDir)
  }

  /**
   * The rule levels in force inside folder `dir` (its own .gitignore included), or null when the
   * folder or one above it was excluded or holds a .gitignore whose rules are unknown. Kept per
   * folder: an install's restore asks about thousands of paths in a few hundred folders, and would
   * match every ancestor of each again.
   */
  private inside(dir: string): Level[] | null {
    const hit = this.folders.get(dir)
    if (hit !== undefined) return hit
    let levels: Level[] | null
    if (dir === '') {
      const root = this.gitignoreLevel('')
      levels = root === UNKNOWN ? null : root ? [this.base, root] : [this.base]
    } else {
      const up = this.inside(parentKey(dir))
      if (up === null || excludedByLevels(up, dir, true)) levels = null
      else {
        const own = this.gitignoreLevel(dir)
        levels = own === UNKNOWN ? null : own ? [...up, own] : up
      }
    }
    this.folders.set(dir, levels)
    return levels
  }

  /**
   * The rules of folder `dir`'s own .gitignore at the capture: none when there was none (or a
   * folder by that name), UNKNOWN when one was there but its content cannot be read back (over
   * the size cap, a symlink, or its stored copy lost): the folder then counts as excluded, as
   * nothing in it can be told apart from a file its rules ignored.
   */
  private gitignoreLevel(dir: string): Level | null | typeof UNKNOWN {
    if (!this.rules.gitignore) return null
    if (this.levels.has(dir)) return this.levels.get(dir)!
    const entry = this.pre.get(dir ? `${dir}/.gitignore` : '.gitignore')
    let level: Level | null | typeof UNKNOWN = null
    if (entry && entry.type !== 'dir') {
      const bytes = entry.type === 'file' && entry.hash ? this.blobs.read(entry.hash) : null
      level = bytes ? { base: dir, ig: ignore().add(bytes.toString('utf8')) } : UNKNOWN
    }
    this.levels.set(dir, level)
    return level
  }
}
