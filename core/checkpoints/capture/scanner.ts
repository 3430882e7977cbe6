// Walks a root and records every path: type, mode, size, mtime, inode and, for files, the content
// hash. Incremental: a file whose (size, mtime, inode) match the previous record keeps its hash
// and is not read again. Only changed files are read (hash-phase.ts), and their bytes go into the
// blob store in the same read that hashes them.
import fs from 'node:fs'
import path from 'node:path'
import { sha256 } from '../store/blob-io'
import { LinkProbe } from './link-probe'
import type { BlobStore } from '../store/blobs'
import { nameKey } from '../store/paths'
import type { ExcludeRules } from '../store/excludes'
import type { Entry, ProgressEvent, ScanStats } from '../types'
import { os, readdirTyped, readLink, toBytes } from '../store/os-names'
import { provenSame } from './stat-proof'
import { withXattrs, xattrsKept } from '../store/xattrs'
import type { RootState, WalkDelta } from '../store/snapshot-deltas'

export const noStats = (): ScanStats => ({ filesScanned: 0, filesHashed: 0, bytesHashed: 0, notCheckpointed: [], warnings: [] })

export function statToEntry(st: fs.Stats): Entry {
  const type = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'symlink' : 'file'
  return { type, mode: st.mode & 0o7777, size: type === 'dir' ? 0 : st.size, mtimeMs: st.mtimeMs, ino: st.ino }
}

/** Same file, unchanged content, judged by metadata only (the incremental test). */
export function sameStat(a: Entry, b: Pick<Entry, 'size' | 'mtimeMs' | 'ino'>): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino
}

export function linkHash(link: string): string {
  // Bytes, not the string: two link texts that differ only in bytes that are not UTF-8 differ.
  return sha256(Buffer.concat([Buffer.from('symlink:'), toBytes(link)]))
}

export interface Pending {
  key: string
  abs: string
  entry: Entry
  /** The walk's ctime of the file (with the entry's size, mtime and inode: the stat its read is first judged against). */
  ctimeMs?: number
  /** Some process maps it writable: its stat proves nothing, so no ctime proof is recorded for it. */
  mapped?: boolean
}

export interface ScanContext {
  rootAbs: string
  rules: ExcludeRules
  blobs: BlobStore
  maxFileBytes: number
  prior: RootState | undefined
  /**
   * A recorded file's hash is reused on equal (size, mtime, inode) only if its mtime is before
   * this time: an entry written just before the capture that recorded it is "racy" (another write
   * in the same timestamp tick, or one with its mtime set back, looks identical) and is re-read.
   */
  trustStatBefore: number
  /** A freshly read file's ctime is recorded (a proof for later stats) only if before this. */
  ctimeTrustBefore: number
  /** Restrict to these keys (and nothing else); used for quick targeted captures. */
  only?: Iterable<string>
  onProgress?: (p: ProgressEvent) => void
  /** CaptureOptions.afterRead (test hook). */
  afterRead?: (abs: string) => void
  stats: ScanStats
  /** Sees the lstat of every folder walked (the watcher checks folder birth times). */
  onFolder?: (st: fs.Stats) => void
  /**
   * A file some process maps shared and writable (mapped-files.ts): read whatever its stat says, as
   * a write to an already-dirty mapped page moves neither its mtime nor its ctime.
   */
  rehash?: (key: string, ino: number) => boolean
  /** Gets the keys of files with more than one name, loses those with one (the journal's `linked`). */
  linked?: Set<string>
  /** Gets the paths recorded with a ctime from `recentSince` on (the journal's `recheck`). */
  recent?: string[]
  recentSince?: number
  /** Totals across roots for progress. */
  progress: { filesTotal: number; filesDone: number; bytesTotal: number; bytesDone: number }
}

const { S_IFMT, S_IFDIR, S_IFLNK, S_IFREG } = fs.constants
/** Keys hold NFC names on macOS (see nameKey); decided once, not per name. */
const NFC = nameKey('\u0065\u0301') !== '\u0065\u0301'

/** lstat, or null for a path that is gone or no longer reachable (ENOENT, ENOTDIR, …). */
export function lstatOrNull(abs: string): fs.Stats | null {
  try {
    return fs.lstatSync(os(abs))
  } catch {
    return null
  }
}

export interface WalkResult {
  state: RootState
  pending: Pending[]
  delta: WalkDelta
}

/** One root's new state, built from lstat results. */
export class RootScan {
  readonly state: RootState = new Map()
  readonly pending: Pending[] = []
  readonly delta: WalkDelta
  constructor(private readonly ctx: ScanContext) {
    this.delta = { prior: ctx.prior, fresh: [], known: 0 }
  }

  result(): WalkResult {
    return { state: this.state, pending: this.pending, delta: this.delta }
  }

  private keep(key: string, entry: Entry, old: Entry | undefined): void {
    this.state.set(key, entry)
    if (entry !== old) this.delta.fresh.push(key)
  }

  /** Records the path `key` at `abs` from its lstat `st`. */
  addStat(key: string, abs: string, st: fs.Stats): void {
    const ctx = this.ctx
    const { mode, size, mtimeMs, ino, ctimeMs } = st
    const fmt = mode & S_IFMT
    const type = fmt === S_IFDIR ? 'dir' : fmt === S_IFLNK ? 'symlink' : fmt === S_IFREG ? 'file' : null
    if (!type) return // sockets, fifos, devices: never checkpointed
    ctx.stats.filesScanned++
    const perm = mode & 0o7777
    const old = ctx.prior?.get(key)
    if (old) this.delta.known++
    if (ctx.recent && ctimeMs >= ctx.recentSince!) ctx.recent.push(abs)
    if (ctx.linked && type === 'file') {
      if (st.nlink > 1) ctx.linked.add(key)
      else ctx.linked.delete(key)
    }
    if (type === 'file' && size <= ctx.maxFileBytes) {
      const mapped = ctx.rehash?.(key, ino) === true
      // Trusted by its mtime, and its ctime agrees: the recorded one if any, else one older than
      // the trust line too. An edit of equal size with its mtime set back moves the ctime.
      const trusted = !mapped && old !== undefined && old.mtimeMs < ctx.trustStatBefore && (old.ctimeMs !== undefined ? old.ctimeMs === ctimeMs : ctimeMs < ctx.trustStatBefore)
      // Without a recorded ctime, an attribute change (it moves only the ctime) is asked for.
      if (trusted && old.type === 'file' && old.hash && old.mode === perm && sameStat(old, st) && (old.ctimeMs !== undefined || xattrsKept(abs, old))) {
        // Unchanged: the recorded entry itself is kept (no new object, nothing for the diff).
        this.keep(key, old, old)
        return
      }
      // Racy by its mtime, but its ctime proves it (stat-proof.ts): the recorded entry is kept.
      // Asked only after the common case above, so a walk of unchanged files pays nothing for it.
      if (!mapped && old?.ctimeMs !== undefined && provenSame(st, old)) {
        this.keep(key, old, old)
        return
      }
      const entry: Entry = { type, mode: perm, size, mtimeMs, ino }
      withXattrs(entry, abs)
      if (trusted && old.type === 'file' && old.hash && sameStat(old, entry)) entry.hash = old.hash
      else {
        this.pending.push({ key, abs, entry, ctimeMs, mapped })
        ctx.progress.bytesTotal += size
      }
      this.keep(key, entry, old)
      return
    }
    // A folder's attributes are asked on every walk of it (its mtime does not move with them).
    if (type === 'dir' && old && old.type === 'dir' && old.mode === perm && old.mtimeMs === mtimeMs && old.ino === ino && xattrsKept(abs, old)) {
      this.keep(key, old, old)
      return
    }
    const entry: Entry = { type, mode: perm, size: type === 'dir' ? 0 : size, mtimeMs, ino }
    if (type === 'dir') withXattrs(entry, abs)
    if (type === 'symlink') {
      try {
        entry.link = readLink(abs)
        entry.hash = linkHash(entry.link)
      } catch (err) {
        ctx.stats.warnings.push(`cannot read link ${key}: ${(err as Error).message}`)
        if (old) this.delta.known--
        return
      }
    } else if (type === 'file') {
      entry.type = 'oversize'
      ctx.stats.notCheckpointed.push(key)
    }
    this.keep(key, entry, old)
  }

  /**
   * Walks a folder: each entry the rules keep is lstat-ed and recorded, each folder walked in turn.
   */
  walk(dirAbs: string, dirKey: string): void {
    const ctx = this.ctx
    let entries: { name: string; isDirectory: boolean }[]
    try {
      entries = readdirTyped(dirAbs)
    } catch (err) {
      ctx.stats.warnings.push(`cannot read folder ${dirKey || '.'}: ${(err as Error).message}`)
      return
    }
    const keyPrefix = dirKey ? dirKey + '/' : ''
    const prefix = dirAbs.endsWith(path.sep) ? dirAbs : dirAbs + path.sep
    const pushed = ctx.rules.enter(
      dirKey,
      entries.some((d) => d.name === '.gitignore'),
    )
    for (const { name: raw, isDirectory: isDir } of entries) {
      const key = keyPrefix + (NFC ? raw.normalize('NFC') : raw)
      if (ctx.rules.excluded(key, isDir, isDir ? prefix + raw : '', NFC ? undefined : raw)) continue
      const abs = prefix + raw
      const est = lstatOrNull(abs)
      if (!est) continue // deleted while walking
      this.addStat(key, abs, est)
      if (est.isDirectory()) {
        ctx.onFolder?.(est)
        this.walk(abs, key)
      }
    }
    ctx.rules.leave(pushed)
  }
}

/** Scan phase: the walk, on this thread. Returns the new state with hashes still missing for `pending`. */
export function walkRoot(ctx: ScanContext): WalkResult {
  const scan = new RootScan(ctx)
  if (ctx.only) {
    // Targeted capture: the state holds only the refreshed keys (absent = deleted); the snapshot
    // store diffs exactly those keys against the head, so nothing else is copied.
    // A key below a folder that is a symlink now does not exist in this tree (a walk never
    // follows links): reading it would record what the link points at under the key.
    const links = new LinkProbe(ctx.rootAbs, true)
    for (const key of ctx.only) {
      if (!links.reachable(key)) {
        ctx.linked?.delete(key)
        continue
      }
      const abs = path.join(ctx.rootAbs, ...key.split('/'))
      const st = lstatOrNull(abs)
      if (st) scan.addStat(key, abs, st)
      else ctx.linked?.delete(key)
    }
  } else {
    scan.walk(ctx.rootAbs, '')
  }
  ctx.progress.filesTotal += scan.pending.length
  return scan.result()
}
