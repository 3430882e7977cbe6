// How a file's bytes get into the store. A small one is read into one reused buffer and hashed
// (the pack copies what it keeps, packs.ts), so no buffer is allocated and collected per file.
// A file of 1 MiB or more becomes a loose blob, copied by the kernel into the store's temp folder
// (copyFile: no bytes through JavaScript, where a read and a write per MiB each waited on the
// thread pool) and hashed from that copy, so the hash is of exactly the bytes the store keeps;
// whether the source held one version during the copy is judged by the caller's stat before and
// after (readStable). A content whose size equals a large blob's already stored (a hard link, a
// package vendored twice) is hashed first without copying: when the hash is known, nothing is
// written. Figures: docs/checkpoints.md, "Benchmark".
import crypto from 'node:crypto'
import fs from 'node:fs'
import { FILE_MODE } from './fsutil'
import { os } from './os-names'
import { spaceLimited, writeToStoreAsync } from './store-space'

/** Hex SHA-256 (the one-shot crypto.hash: less per call than a Hash object for small files). */
export const sha256 = (data: string | Uint8Array): string => crypto.hash('sha256', data, 'hex')

/** Reads a file from its start into `buf` until its end or until `buf` is full; the bytes read. */
export function readUpTo(file: string | Buffer, buf: Buffer): number {
  const fd = fs.openSync(file, 'r')
  try {
    let n = 0
    while (n < buf.length) {
      const got = fs.readSync(fd, buf, n, buf.length - n, null)
      if (got === 0) break
      n += got
    }
    return n
  } finally {
    fs.closeSync(fd)
  }
}

export const CHUNK = 1 << 20

/** Two buffers: one being hashed while the thread pool reads the next chunk into the other. */
export type HashBuffers = [Buffer, Buffer]

export function hashBuffers(): HashBuffers {
  return [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)]
}

/** SHA-256 and length of a file, read in chunks with the next read under way during each update. */
export async function hashFileAsync(file: string | Buffer, bufs: HashBuffers, onBytes?: (n: number) => void): Promise<{ hash: string; size: number }> {
  const hasher = crypto.createHash('sha256')
  const fh = await fs.promises.open(file, 'r')
  let size = 0
  try {
    let i = 0
    let next = fh.read(bufs[0], 0, CHUNK, null)
    for (;;) {
      const { bytesRead } = await next
      if (bytesRead === 0) break
      const chunk = bufs[i]!.subarray(0, bytesRead)
      i ^= 1
      next = fh.read(bufs[i]!, 0, CHUNK, null)
      hasher.update(chunk)
      size += bytesRead
      onBytes?.(bytesRead)
    }
  } finally {
    await fh.close()
  }
  return { hash: hasher.digest('hex'), size }
}

/**
 * Copy `abs` to the new file `tmp` (mode 0600), then hash the copy. While a test limits the store's
 * space (store-space.ts), the copy goes chunk by chunk through that limit instead, so a "full disk"
 * stops it part-way as a real one would.
 */
export async function copyThenHash(abs: string, tmp: string, bufs: HashBuffers, onBytes?: (n: number) => void): Promise<{ hash: string; size: number }> {
  if (spaceLimited(tmp)) await copyThroughGate(abs, tmp, bufs[0])
  else {
    await fs.promises.copyFile(os(abs), tmp, fs.constants.COPYFILE_EXCL)
    // copyFile gives the copy the source's mode; blobs are private.
    await fs.promises.chmod(tmp, FILE_MODE)
  }
  return hashFileAsync(tmp, bufs, onBytes)
}

/** The copy chunk by chunk through writeToStoreAsync (which throws ENOSPC where the gate stops it). */
async function copyThroughGate(abs: string, tmp: string, buf: Buffer): Promise<void> {
  const src = await fs.promises.open(os(abs), 'r')
  const out = await fs.promises.open(tmp, 'wx', FILE_MODE)
  try {
    for (;;) {
      const { bytesRead } = await src.read(buf, 0, CHUNK, null)
      if (bytesRead === 0) break
      await writeToStoreAsync(out, buf.subarray(0, bytesRead), tmp)
    }
  } finally {
    await src.close()
    await out.close()
  }
}
