// Hash phase of a capture: the files the walk found new or changed are read once each, their
// bytes stored (blobs.ts) in the same read that hashes them, each read checked to be one version
// of the file (a torn read is read again), hard links read once.
import fs from 'node:fs'
import { isOutOfSpace } from '../store/store-space'
import type { PutResult } from '../store/blobs'
import { os } from '../store/os-names'
import { trustedCtime } from './stat-proof'
import type { Pending, ScanContext } from './scanner'

/** Reads a file again when it changed while it was read (a torn read); this many reads at most. */
const STABLE_READS = 3

/**
 * Contents read in this pass by inode, for hard links: another name of an inode read a moment ago
 * is not read again when its lstat equals the stat that read was proven against (size, mtime,
 * ctime, inode, device, mode) and that ctime is older than the capture (the ctime proof of
 * stat-proof.ts: any write since would have moved it). A dependency tree can hold the same
 * 185 MB binary under two names.
 */
export type ReadInodes = Map<number, { st: fs.Stats; r: PutResult }>

type Version = Pick<fs.Stats, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>

/**
 * Store a file's content, making sure it is one version of it: the file's stat after the read
 * must equal the stat before it (size, mtime, ctime, inode), else the read may mix two writes and
 * is done again from a fresh stat. Null when the file kept changing.
 *
 * The first "before" is the walk's own lstat when it has the ctime (an lstat per file less: 14,000
 * in a first capture). It is older than a fresh one, so the read is judged over a longer span: a
 * change since the walk is a failed first try, and that read is then done again from a fresh stat
 * with as many tries as before.
 */
async function readStable(ctx: ScanContext, p: Pending, onBytes: (n: number) => void, inodes: ReadInodes): Promise<PutResult | null> {
  const e = p.entry
  let before: Version = p.ctimeMs !== undefined ? { size: e.size, mtimeMs: e.mtimeMs, ctimeMs: p.ctimeMs, ino: e.ino } : fs.lstatSync(os(p.abs))
  const linked = p.mapped ? undefined : inodes.get(e.ino)
  if (linked) {
    const st = fs.lstatSync(os(p.abs))
    if (st.dev === linked.st.dev && sameVersion(linked.st, st) && linked.st.mode === st.mode && trustedCtime(st, ctx.ctimeTrustBefore) !== undefined) {
      record(ctx, p, st)
      onBytes(linked.r.size)
      return linked.r
    }
    before = st
  }
  const tries = STABLE_READS + (p.ctimeMs !== undefined && !linked ? 1 : 0)
  for (let i = 0; i < tries; i++) {
    const r = await ctx.blobs.putFile(p.abs, before.size, onBytes)
    ctx.afterRead?.(p.abs)
    const after = fs.lstatSync(os(p.abs))
    if (sameVersion(before, after) && r.size === after.size) {
      record(ctx, p, after)
      if (after.nlink > 1 && p.entry.ctimeMs !== undefined && !p.mapped) inodes.set(after.ino, { st: after, r })
      return r
    }
    before = after
  }
  return null
}

/** Record the stat the content belongs to: the next capture compares against it. */
function record(ctx: ScanContext, p: Pending, st: fs.Stats): void {
  p.entry.size = st.size
  p.entry.mtimeMs = st.mtimeMs
  p.entry.ino = st.ino
  p.entry.mode = st.mode & 0o7777
  // A mapped file's ctime proves nothing (mapped-files.ts): none is recorded for later proofs.
  const ctime = p.mapped ? undefined : trustedCtime(st, ctx.ctimeTrustBefore)
  if (ctime !== undefined) p.entry.ctimeMs = ctime
}

function sameVersion(a: Version, b: Version): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino
}

/**
 * Hash phase: read changed files once, one after another, storing their bytes while hashing. A
 * full store disk fails the whole capture (hashOne), which is then rolled back.
 */
export async function hashPending(ctx: ScanContext, pending: Pending[]): Promise<void> {
  let lastEmit = 0
  const emit = (force = false): void => {
    if (!ctx.onProgress) return
    const now = Date.now()
    if (!force && now - lastEmit < 100) return
    lastEmit = now
    ctx.onProgress({ phase: 'hash', ...ctx.progress })
  }
  const onBytes = (n: number): void => {
    ctx.progress.bytesDone += n
    emit()
  }
  const inodes: ReadInodes = new Map()
  let sinceYield = 0
  for (const p of pending) {
    await hashOne(ctx, p, onBytes, inodes)
    ctx.progress.filesDone++
    emit()
    // Let IPC and timers run during a long first capture (a large file yields in its own reads).
    if (++sinceYield >= 256) {
      sinceYield = 0
      await new Promise((r) => setImmediate(r))
    }
  }
  emit(true)
}

/** One file: its hash recorded, or the file recorded as not checkpointed. Throws only when the store's disk is full. */
async function hashOne(ctx: ScanContext, p: Pending, onBytes: (n: number) => void, inodes: ReadInodes): Promise<void> {
  try {
    const r = await readStable(ctx, p, onBytes, inodes)
    if (r) {
      p.entry.hash = r.hash
      ctx.stats.filesHashed++
      ctx.stats.bytesHashed += r.size
    } else {
      // Written to all through the capture: what was read is a mix of versions, never a state
      // to put back. Recorded without content (not restorable, never restored over).
      p.entry.type = 'oversize'
      p.entry.mtimeMs = -1
      ctx.stats.notCheckpointed.push(p.key)
      ctx.stats.warnings.push(`${p.key} was being written during the checkpoint; its content is not kept`)
    }
  } catch (err) {
    // The store's disk is full: that is no fact about this file, and recording it as "not
    // checkpointed" would let the capture pass with a torn pack. The whole capture fails.
    if (isOutOfSpace(err)) throw err
    // Unreadable (EACCES) or vanished: recorded without content, listed as not restorable.
    p.entry.type = 'oversize'
    ctx.stats.notCheckpointed.push(p.key)
    ctx.stats.warnings.push(`cannot read ${p.key}: ${(err as Error).message}`)
  }
}
