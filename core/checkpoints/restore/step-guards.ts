// A restore's content guards: each delete, write and chmod checks, a moment before it acts, that
// its path still holds what apply's re-check found (StepEnv.guards). Why in the step and not only
// in the re-check: an install's restore is thousands of deletes, and a restore writing large files
// takes seconds; an edit or an editor's autosave made between the re-check and that path's step
// was deleted or overwritten (safety.test.ts, restore-races.test.ts). A path a guard keeps is
// reported and left out of what the restore touched, so its undo never writes over it either.
import fs from 'node:fs'
import { currentEntry, matches } from '../capture/current'
import { os } from '../store/os-names'
import type { RootRuntime } from '../store/roots'
import { provenSame } from '../capture/stat-proof'
import { KeptInPlace } from './step-env'
import type { StepEnv } from './step-env'

const MAYBE = { throwIfNoEntry: false } as const

/**
 * An unlink's check (`k`: its `root:key`): the file or link must still hold what the plan saw (the
 * ctime proof, else the hash, as the re-check judges: current.ts). False when it is gone already
 * (the restore does not touch it); throws KeptInPlace when it changed since the plan. Otherwise true.
 */
export function checkUnlink(env: StepEnv, k: string, root: RootRuntime, abs: string): boolean {
  const guard = env.guards.get(k)
  if (!guard) return true
  if (!root.caseInsensitive) {
    // Its common case first: one lstat whose ctime proves the file is the one the plan saw.
    const st = fs.lstatSync(os(abs), MAYBE)
    if (st && provenSame(st, guard)) return true
    if (!st) return gone(env, k)
  }
  const now = currentEntry(abs, root.caseInsensitive, env.blobs, env.maxFileBytes, guard)
  if (!now) return gone(env, k)
  if (!matches(now, guard)) throw new KeptInPlace('changed since the plan was made; kept as it is')
  return true
}

/**
 * A write's (or a file chmod's) check, right before its rename: the path holds what the re-check
 * found — nothing, when a step of this restore removed what stood there. Throws KeptInPlace
 * otherwise: an autosave since is the user's, never replaced. No guard (recovery): nothing asked.
 */
export function checkWrite(env: StepEnv, k: string, root: RootRuntime, abs: string): void {
  if (!env.guards.has(k)) return
  const want = env.cleared.has(k) ? undefined : (env.guards.get(k) ?? undefined)
  const now = currentEntry(abs, root.caseInsensitive, env.blobs, env.maxFileBytes, want)
  if (matches(now, want)) return
  throw new KeptInPlace(want ? 'changed since the plan was made; kept as it is' : 'created since the plan was made; kept as it is')
}

/**
 * A file chmod's path already holds what the re-check found with the planned mode: another name of
 * the same file (a hard link the turn changed through) had its chmod first. Done, not "changed".
 */
export function modeAlreadySet(env: StepEnv, k: string, root: RootRuntime, abs: string, mode: number): boolean {
  const want = env.cleared.has(k) ? undefined : (env.guards.get(k) ?? undefined)
  if (want?.type !== 'file') return false
  return matches(currentEntry(abs, root.caseInsensitive, env.blobs, env.maxFileBytes, want), { ...want, mode })
}

/** The file was gone already: the restore did not touch it. */
function gone(env: StepEnv, k: string): false {
  env.vanished.add(k)
  return false
}

/**
 * What a failed unlink means. Unlink never removes a folder (EISDIR on Linux, EPERM on macOS): only
 * then is the path looked at again. Gone already, or a folder above it is a file now (so it cannot
 * be there): nothing to do. Anything else is the step's failure.
 */
export function unlinkFailed(abs: string, err: NodeJS.ErrnoException): void {
  const code = err.code
  if (code === 'ENOENT' || code === 'ENOTDIR') return
  if ((code === 'EISDIR' || code === 'EPERM') && fs.lstatSync(os(abs)).isDirectory()) throw new KeptInPlace('is a folder now; kept')
  throw err
}
