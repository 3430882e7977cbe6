// A restore's deletes: each file the turn made is checked a moment before its unlink (the content
// guard), and what a failed unlink means. Why the check is in the step and not only in apply's
// re-check: an install's restore is thousands of deletes, and an edit made between the re-check
// and a late file's unlink was deleted (safety.test.ts).
import fs from 'node:fs'
import path from 'node:path'
import { currentEntry, matches } from './current'
import { os, realpathOf } from './os-names'
import type { RootRuntime } from './roots'
import { provenSame } from './stat-proof'
import { KeptInPlace } from './step-env'
import type { StepEnv } from './step-env'

const MAYBE = { throwIfNoEntry: false } as const

/**
 * An unlink's check, a moment before the unlink (`k`: its `root:key`): a file the turn made must
 * still hold what the plan saw (the content guard: the ctime proof, else the hash, as the re-check
 * judges: current.ts). False when the file is gone already (the restore does not touch it); throws
 * KeptInPlace when it changed since the plan. Otherwise true.
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
  assertFolderAsJudged(env, abs)
  if (!matches(now, guard)) throw new KeptInPlace('changed since the plan was made; kept as it is')
  return true
}

/**
 * A file its lstat did not prove is judged by content only while its folder still resolves to the
 * real path the steps' checks found for it (stepTarget judges a folder once per restore, for the
 * first of its files). Why: a folder above it swapped for a link since leads to another folder,
 * whose file may hold the same bytes (a package store's copy) and would pass the content guard.
 * Such a file is kept. Asked only when the lstat proved nothing: one realpath, rarely.
 */
function assertFolderAsJudged(env: StepEnv, abs: string): void {
  const dir = path.dirname(abs)
  const judged = env.parents.get(dir)
  let now: string | null = null
  try {
    now = realpathOf(dir)
  } catch {
    // Gone, or not a folder: not the one that was judged.
  }
  if (judged === undefined || now !== judged) throw new KeptInPlace('its folder is not the one checked before its delete (a folder above it swapped for a link?); kept')
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
