// Writes into the store's own files, and what a full disk means for a capture.
//
// Every byte the engine appends to the store (pack data, pack index lines, large blobs, JSON
// records, the lock file) goes through writeToStore, so a test can make the disk "full" at any
// point (a store opened with `spaceGate`) — after N more bytes, or at one kind of file — without root or a special file system
// (CI cannot always mount a tiny tmpfs). Like a real disk, a write that does not fit writes what
// fits, then fails with ENOSPC: the partial write is the case the capture's rollback must clean.
import fs from 'node:fs'
import path from 'node:path'
import { CheckpointError, type SpaceGate } from '../types'

export type { SpaceGate } from '../types'

/**
 * The space each open store may use, as its opener gave it (`OpenOptions.spaceGate`), keyed by the
 * store's folder: the writes below know only the file they write, and every store file lies in it.
 */
const gates = new Map<string, SpaceGate>()

/** Called by the engine at open (with the option) and at close (null). */
export function gateStore(storeDir: string, g: SpaceGate | null): void {
  if (g) gates.set(storeDir + path.sep, g)
  else gates.delete(storeDir + path.sep)
}

function gateOf(file: string): SpaceGate | undefined {
  if (gates.size === 0) return undefined
  for (const [dir, g] of gates) if (file.startsWith(dir)) return g
  return undefined
}

/** Is the store `file` belongs to limited? (Writes that bypass writeToStore then go through it.) */
export function spaceLimited(file: string): boolean {
  return gateOf(file) !== undefined
}

/** A disk with `bytes` left: every store write spends from it until it is gone. */
export function spaceLeft(bytes: number): SpaceGate {
  let left = bytes
  return (w) => {
    const ok = Math.max(0, Math.min(left, w.bytes))
    left -= ok
    return ok
  }
}

function enospc(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), { code: 'ENOSPC', errno: -28, syscall: 'write', path: file })
}

/** Write all of `data` at the fd's position (or append), or throw ENOSPC after writing what fits. */
export function writeToStore(fd: number, data: string | Uint8Array, file: string): void {
  const buf = typeof data === 'string' ? Buffer.from(data) : data
  const gate = gateOf(file)
  const allowed = gate ? gate({ file, bytes: buf.length }) : buf.length
  let off = 0
  while (off < allowed) off += fs.writeSync(fd, buf, off, allowed - off)
  if (allowed < buf.length) throw enospc(file)
}

/** Same for a streamed large blob (async handle). */
export async function writeToStoreAsync(handle: fs.promises.FileHandle, chunk: Uint8Array, file: string): Promise<void> {
  const gate = gateOf(file)
  const allowed = gate ? gate({ file, bytes: chunk.length }) : chunk.length
  let off = 0
  while (off < allowed) off += (await handle.write(chunk, off, allowed - off)).bytesWritten
  if (allowed < chunk.length) throw enospc(file)
}

/** ENOSPC (disk full) and EDQUOT (the user's quota on it) mean the same to the user. */
export function isOutOfSpace(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code
  return code === 'ENOSPC' || code === 'EDQUOT'
}

/** The error a capture that ran out of space ends with: what happened, that nothing was kept, what to do. */
export function outOfSpaceError(storeDir: string, err: unknown): CheckpointError {
  const quota = (err as NodeJS.ErrnoException).code === 'EDQUOT'
  const why = quota ? 'your disk quota is used up' : 'the disk is full'
  return new CheckpointError(
    'ENOSPC',
    `${why} where Retake keeps its checkpoints (${storeDir}). Nothing was recorded and the partial checkpoint was removed. Free some space and send again, or send without a checkpoint.`,
  )
}
