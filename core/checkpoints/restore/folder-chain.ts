// The folders above a step's path, looked at by every step, by device and inode, against the ones
// apply's re-check saw. Why each step and not once per folder: while a restore runs, another
// process may swap a folder of the plan for a link (a package manager linking its store, another
// checkout), for another folder, or mount something over it; a path through it then leads to
// files outside the project, often with the very bytes the plan expects (a package store's hard
// links), which no content check tells apart. Nothing is written, renamed or deleted through a
// folder that is not, at that moment, the one checked. Cost: one lstat per folder above the path
// per step (an install's restore: its files' depth each).
import fs from 'node:fs'
import path from 'node:path'
import { os, realpathOf } from '../store/os-names'
import { KeptInPlace, type FolderIds } from './step-env'
import { CheckpointError } from '../types'

export type { FolderIds } from './step-env'

export const folderId = (st: fs.Stats): string => `${st.dev}:${st.ino}`
const MAYBE = { throwIfNoEntry: false } as const

/**
 * The root, recorded before any step: the folder it was opened as (`rootReal`, its real path at
 * open), reached through `rootAbs`. A root that resolves elsewhere now (swapped for a link since
 * open) is not recorded, and every step there is refused.
 */
export function recordRoot(ids: FolderIds, rootAbs: string, rootReal: string): void {
  let real: string
  try {
    real = realpathOf(rootAbs)
  } catch {
    return
  }
  const st = fs.statSync(os(rootAbs), MAYBE)
  if (real === rootReal && st?.isDirectory()) ids.set(rootAbs, folderId(st))
}

/**
 * Record the real folders above `key` as they are now (apply's re-check). A link, a file or a
 * missing folder ends the walk: a step below a link finds it and keeps its path; a folder a step
 * makes is recorded by that step.
 */
export function recordChain(ids: FolderIds, rootAbs: string, key: string): void {
  for (const abs of foldersAbove(rootAbs, key)) {
    if (ids.has(abs)) continue
    const st = fs.lstatSync(os(abs), MAYBE)
    if (!st?.isDirectory()) return
    ids.set(abs, folderId(st))
  }
}

/**
 * Check the folders above `key`, from the root down: each must be a real folder (not a link) with
 * the identity recorded for it; one with no record (made since the re-check by someone else) must
 * be on its parent's device (a mount is another file system's). `make`: missing folders are made
 * one at a time (never `mkdir -p`, which follows links) and recorded, and a file in the way is a
 * kept path. Returns false when a folder above is missing or a file (nothing below can exist).
 */
export function checkChain(ids: FolderIds, rootAbs: string, key: string, make?: (abs: string) => void): boolean {
  // The whole key was checked safe (stepTarget's keyToAbs): its folders' paths are the root's plus
  // their names, built as the walk goes down (no join per folder: an install has thousands of steps).
  const body = path.sep === '/' ? key : key.split('/').join(path.sep)
  const base = rootAbs.endsWith(path.sep) ? rootAbs : rootAbs + path.sep
  // The root itself is looked at only when no recorded folder below it vouches for it: a recorded
  // folder reached through a root swapped for a link is another inode.
  let dev = -1
  for (let at = key.indexOf('/'); ; at = key.indexOf('/', at + 1)) {
    const abs = at === -1 ? null : base + body.slice(0, at)
    const known = abs === null ? undefined : ids.get(abs)
    if (dev === -1 && known === undefined) dev = rootDev(ids, rootAbs)
    if (abs === null) return true
    let st = fs.lstatSync(os(abs), MAYBE)
    if (!st && make) st = makeFolder(ids, abs, make)
    if (!st) return false
    if (st.isSymbolicLink()) throw new KeptInPlace(`the folder ${key.slice(0, at)} above it is a link now (kept); nothing is written through it`)
    if (!st.isDirectory()) {
      if (make) throw new KeptInPlace('its folder is a file now, and that file is kept; not put back')
      return false
    }
    if (known !== undefined ? known !== folderId(st) : st.dev !== dev) {
      throw new KeptInPlace(`the folder ${key.slice(0, at)} above it is not the one checked before the restore (replaced, or mounted over, since); kept`)
    }
    dev = st.dev
  }
}

/** The root's device, when it is the folder recorded before the steps; else nothing is done there. */
function rootDev(ids: FolderIds, rootAbs: string): number {
  const top = fs.statSync(os(rootAbs), MAYBE)
  if (!top?.isDirectory() || ids.get(rootAbs) !== folderId(top)) {
    throw new CheckpointError('EBAD_PATH', `${rootAbs} is not the folder this restore started in (replaced by a link or another folder?); nothing written there`)
  }
  return top.dev
}

/** The path of each folder above `key` (as checkChain builds them). */
function* foldersAbove(rootAbs: string, key: string): Generator<string> {
  const body = path.sep === '/' ? key : key.split('/').join(path.sep)
  const base = rootAbs.endsWith(path.sep) ? rootAbs : rootAbs + path.sep
  for (let at = key.indexOf('/'); at !== -1; at = key.indexOf('/', at + 1)) yield base + body.slice(0, at)
}

/** One folder made by a step (its parent checked just before), recorded as the restore's own. */
function makeFolder(ids: FolderIds, abs: string, made: (abs: string) => void): fs.Stats | undefined {
  try {
    fs.mkdirSync(os(abs))
    made(abs)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    return fs.lstatSync(os(abs), MAYBE) // someone else's, judged as any other folder
  }
  const st = fs.lstatSync(os(abs))
  if (st.isDirectory()) ids.set(abs, folderId(st))
  return st
}
