// Reading the current state of single paths (plans and the re-check under the lock) and comparing
// it with recorded entries. Content equality is by hash; a file over the size cap is compared by
// its (size, mtime, inode) since its content was never read.
import fs from 'node:fs'
import path from 'node:path'
import type { BlobStore } from '../store/blobs'
import { nameKey } from '../store/paths'
import { linkHash, lstatOrNull, sameStat, statToEntry } from './scanner'
import type { Entry } from '../types'
import { readdirNames, readLink } from '../store/os-names'
import { provenSame } from './stat-proof'
import { sameXattrs, withXattrs } from '../store/xattrs'

/**
 * lstat that, on a case-insensitive root, only accepts the exact on-disk name: `A.txt` and
 * `a.txt` are one file there, but a turn that renamed one to the other must still be seen.
 */
export function lstatExact(abs: string, caseInsensitive: boolean): fs.Stats | null {
  const st = lstatOrNull(abs)
  if (st && caseInsensitive) {
    const name = nameKey(path.basename(abs))
    try {
      const names = readdirNames(path.dirname(abs)).map((n) => nameKey(n))
      if (!names.includes(name)) return null
    } catch {
      return null
    }
  }
  return st
}

/**
 * Current entry of a path. Files are always hashed: this is what a restore decides on before it
 * overwrites or deletes, and an edit of equal size in the same timestamp tick (or with its mtime set
 * back) has the same (size, mtime, inode) — the conflict guard is by content, never by (size, mtime,
 * inode). Two exceptions: a file over the size cap is compared by stat (its content was never
 * kept), and a file whose ctime proves it still holds what `known` recorded (stat-proof.ts: the
 * ctime, which no call sets back, recorded outside the racy window) takes that record's hash.
 */
export function currentEntry(abs: string, ci: boolean, blobs: BlobStore, maxFileBytes: number, known?: Entry): Entry | undefined {
  const st = lstatExact(abs, ci)
  if (!st) return undefined
  const e = statToEntry(st)
  // The ctime moves with every attribute change too: a proven file holds the recorded attributes.
  if (provenSame(st, known)) return { ...e, hash: known!.hash, ctimeMs: known!.ctimeMs, ...(known!.xattrs && { xattrs: known!.xattrs }) }
  if (e.type !== 'symlink') withXattrs(e, abs)
  if (e.type === 'symlink') {
    e.link = readLink(abs)
    e.hash = linkHash(e.link)
  } else if (e.type === 'file') {
    if (!st.isFile()) return { ...e, type: 'oversize' }
    if (e.size > maxFileBytes) e.type = 'oversize'
    else {
      try {
        e.hash = blobs.hashFile(abs)
      } catch {
        e.type = 'oversize' // unreadable: content unknown
      }
    }
  }
  return e
}

/** Does the disk entry `a` hold what the record `r` says (content, type, mode)? */
export function matches(a: Entry | undefined, r: Entry | undefined): boolean {
  if (!a || !r) return a === r
  if (r.type === 'oversize' || a.type === 'oversize') {
    if (a.type === 'file' && r.type === 'oversize') return sameStat(a, r)
    if (a.type === 'oversize' && r.type === 'oversize') return sameStat(a, r) && a.mode === r.mode
    return false
  }
  if (a.type !== r.type) return false
  if (a.type === 'symlink') return a.link === r.link
  if (a.mode !== r.mode || !sameXattrs(a.xattrs, r.xattrs)) return false
  return a.type === 'dir' || a.hash === r.hash
}

/** Did a turn change this path (ignoring mtime-only touches)? */
export function contentChanged(before: Entry | undefined, after: Entry | undefined): boolean {
  if (!before || !after) return before !== after
  if (before.type !== after.type) return true
  if (before.type === 'oversize') return !sameStat(before, after)
  if (before.type === 'symlink') return before.link !== after.link
  if (before.mode !== after.mode || !sameXattrs(before.xattrs, after.xattrs)) return true
  return before.type === 'file' && before.hash !== after.hash
}

export function describeMismatch(actual: Entry | undefined, expected: Entry | undefined): string {
  if (!actual) return 'deleted since the turn'
  if (!expected) return 'created since the turn'
  if (actual.type !== expected.type) return `is now a ${label(actual.type)}, the turn left a ${label(expected.type)}`
  if (actual.type !== 'symlink' && actual.mode !== expected.mode && actual.hash === expected.hash) return 'permissions changed since the turn'
  if (actual.type !== 'symlink' && actual.hash === expected.hash && !sameXattrs(actual.xattrs, expected.xattrs)) return 'tags or extended attributes changed since the turn'
  return 'edited since the turn'
}

function label(t: Entry['type']): string {
  return t === 'dir' ? 'folder' : t === 'symlink' ? 'symbolic link' : 'file'
}
