// Walks a root and records every path: type, mode, size, mtime, inode and, for files, the content
// hash. Incremental: a file whose (size, mtime, inode) match the previous record keeps its hash
// and is not read again. Only changed files are read, and their bytes go into the blob store in
// the same read that hashes them.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { BlobStore } from './blobs'
import { nameKey } from './paths'
import type { ExcludeRules } from './excludes'
import type { Entry, ProgressEvent } from './types'

export type RootState = Map<string, Entry>

export interface ScanStats {
  filesScanned: number
  filesHashed: number
  bytesHashed: number
  bytesWritten: number
  notCheckpointed: string[]
  warnings: string[]
}

export function statToEntry(st: fs.Stats): Entry {
  const type = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'symlink' : 'file'
  return { type, mode: st.mode & 0o7777, size: type === 'dir' ? 0 : st.size, mtimeMs: st.mtimeMs, ino: st.ino }
}

/** Same file, unchanged content, judged by metadata only (the incremental test). */
export function sameStat(a: Entry, b: Entry): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino
}

export function linkHash(link: string): string {
  return crypto.createHash('sha256').update('symlink:' + link).digest('hex')
}

interface Pending {
  key: string
  abs: string
  entry: Entry
}

export interface ScanContext {
  rootAbs: string
  rules: ExcludeRules
  blobs: BlobStore
  maxFileBytes: number
  prior: RootState | undefined
  /** Restrict to these keys (and nothing else); used for quick targeted captures. */
  only?: Iterable<string>
  onProgress?: (p: ProgressEvent) => void
  stats: ScanStats
  /** Sees the lstat of every folder walked (the watcher checks folder birth times). */
  onFolder?: (st: fs.Stats) => void
  /** Totals across roots for progress. */
  progress: { filesTotal: number; filesDone: number; bytesTotal: number; bytesDone: number }
}

/** Scan phase: the walk. Returns the new state with hashes still missing for `pending`. */
export function walkRoot(ctx: ScanContext): { state: RootState; pending: Pending[] } {
  const state: RootState = new Map()
  const pending: Pending[] = []
  const visit = (key: string, abs: string, st: fs.Stats): void => {
    const entry = statToEntry(st)
    ctx.stats.filesScanned++
    if (entry.type === 'symlink') {
      try {
        entry.link = fs.readlinkSync(abs)
        entry.hash = linkHash(entry.link)
      } catch (err) {
        ctx.stats.warnings.push(`cannot read link ${key}: ${(err as Error).message}`)
        return
      }
    } else if (entry.type === 'file') {
      if (!st.isFile()) return // sockets, fifos, devices: never checkpointed
      if (entry.size > ctx.maxFileBytes) {
        entry.type = 'oversize'
        ctx.stats.notCheckpointed.push(key)
      } else {
        const old = ctx.prior?.get(key)
        if (old && old.type === 'file' && old.hash && sameStat(old, entry)) entry.hash = old.hash
        else {
          pending.push({ key, abs, entry })
          ctx.progress.bytesTotal += entry.size
        }
      }
    }
    state.set(key, entry)
  }

  if (ctx.only) {
    // Targeted capture: the state holds only the refreshed keys (absent = deleted); the snapshot
    // store diffs exactly those keys against the head, so nothing else is copied.
    for (const key of ctx.only) {
      const abs = path.join(ctx.rootAbs, ...key.split('/'))
      let st: fs.Stats
      try {
        st = fs.lstatSync(abs)
      } catch {
        continue
      }
      visit(key, abs, st)
    }
    ctx.progress.filesTotal += pending.length
    return { state, pending }
  }

  const walk = (dirAbs: string, dirKey: string): void => {
    let names: fs.Dirent[]
    try {
      names = fs.readdirSync(dirAbs, { withFileTypes: true })
    } catch (err) {
      ctx.stats.warnings.push(`cannot read folder ${dirKey || '.'}: ${(err as Error).message}`)
      return
    }
    const pushed = ctx.rules.enter(dirKey, names.some((d) => d.name === '.gitignore'))
    for (const d of names) {
      const key = (dirKey ? dirKey + '/' : '') + nameKey(d.name)
      const abs = path.join(dirAbs, d.name)
      const isDir = d.isDirectory()
      if (ctx.rules.excluded(key, isDir, abs)) continue
      let st: fs.Stats
      try {
        st = fs.lstatSync(abs)
      } catch {
        continue // deleted while walking
      }
      visit(key, abs, st)
      if (st.isDirectory()) {
        ctx.onFolder?.(st)
        walk(abs, key)
      }
    }
    ctx.rules.leave(pushed)
  }
  walk(ctx.rootAbs, '')
  ctx.progress.filesTotal += pending.length
  return { state, pending }
}

/** Hash phase: read changed files once, storing their bytes while hashing. */
export async function hashPending(ctx: ScanContext, pending: Pending[]): Promise<void> {
  let lastEmit = 0
  const emit = (force = false): void => {
    if (!ctx.onProgress) return
    const now = Date.now()
    if (!force && now - lastEmit < 100) return
    lastEmit = now
    ctx.onProgress({ phase: 'hash', ...ctx.progress })
  }
  let sinceYield = 0
  for (const p of pending) {
    try {
      const r = await ctx.blobs.putFile(p.abs, p.entry.size, (n) => {
        ctx.progress.bytesDone += n
        emit()
      })
      // The recorded stat stays the one taken before the read: if the file changed while it was
      // read, the next capture sees a different stat and reads it again.
      p.entry.hash = r.hash
      if (r.size !== p.entry.size) p.entry.mtimeMs = -1
      ctx.stats.filesHashed++
      ctx.stats.bytesHashed += r.size
      ctx.stats.bytesWritten += r.written
    } catch (err) {
      // Unreadable (EACCES) or vanished: recorded without content, listed as not restorable.
      p.entry.type = 'oversize'
      ctx.stats.notCheckpointed.push(p.key)
      ctx.stats.warnings.push(`cannot read ${p.key}: ${(err as Error).message}`)
    }
    ctx.progress.filesDone++
    emit()
    // Let IPC and timers run during a long first capture in the main process.
    if (++sinceYield >= 256) {
      sinceYield = 0
      await new Promise((r) => setImmediate(r))
    }
  }
  emit(true)
}
