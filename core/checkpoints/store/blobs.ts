// Content-addressed blob store, one blob per distinct content (SHA-256 keyed), all 0600.
// Files under 1 MiB are appended to pack files (packs.ts); larger ones are loose files at
// blobs/<2 hex>/<64 hex>, copied into the store by the kernel and hashed from that copy
// (blob-io.ts) through fixed 1 MiB buffers, so memory stays flat whatever the file size.
import crypto from 'node:crypto'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { BLOB_ID_RE } from './paths'
import { fsyncDir, listDir, mkdirPrivate } from './fsutil'
import { PackStore } from './packs'
import type { PackLoc, PackMark } from './packs'
import { CHUNK, copyThenHash, hashBuffers, hashFileAsync, readUpTo, sha256 } from './blob-io'
import { os } from './os-names'

/** Contents of this size or more are loose blobs; smaller ones go into packs. */
const SMALL = 1 << 20

export interface PutResult {
  hash: string
  /** Bytes read from the source. */
  size: number
}

export class BlobStore {
  private readonly dir: string
  private readonly tmpDir: string
  /** Blob files written since the last flush, made durable together before a snapshot commits. */
  private pending: string[] = []
  private readonly knownShards = new Set<string>()
  /** Loose blobs and shard folders made since the last mark() (a failed capture removes them). */
  private made: { blobs: string[]; shards: string[] } = { blobs: [], shards: [] }
  private readonly buf = Buffer.allocUnsafe(CHUNK)
  private readonly bufs = hashBuffers()
  /** Loose blobs' ids and sizes, loaded on first use (see loose()). */
  private looseKnown: { ids: Set<string>; sizes: Set<number> } | null = null
  readonly packs: PackStore

  constructor(storeDir: string) {
    this.dir = path.join(storeDir, 'blobs')
    this.tmpDir = path.join(storeDir, 'tmp')
    mkdirPrivate(this.dir)
    mkdirPrivate(this.tmpDir)
    this.packs = new PackStore(storeDir)
  }

  pathOf(hash: string): string {
    if (!BLOB_ID_RE.test(hash)) throw new Error(`invalid blob id ${JSON.stringify(hash)}`)
    return path.join(this.dir, hash.slice(0, 2), hash)
  }

  has(hash: string): boolean {
    return BLOB_ID_RE.test(hash) && (this.packs.has(hash) || fs.existsSync(this.pathOf(hash)))
  }

  /** Where a blob's bytes are: a loose file or a range of a pack. */
  locate(hash: string): PackLoc | null {
    const packed = this.packs.locate(hash)
    if (packed) return packed
    const file = this.pathOf(hash)
    try {
      return { file, offset: 0, length: fs.statSync(file).size }
    } catch {
      return null
    }
  }

  /** Whole content of a blob (callers bound the size). */
  read(hash: string): Buffer | null {
    const packed = this.packs.read(hash)
    if (packed) return packed
    try {
      return fs.readFileSync(this.pathOf(hash))
    } catch {
      return null
    }
  }

  private shard(hash: string): string {
    const d = path.join(this.dir, hash.slice(0, 2))
    if (!this.knownShards.has(d)) {
      if (!fs.existsSync(d)) {
        mkdirPrivate(d)
        this.made.shards.push(d)
      }
      this.knownShards.add(d)
    }
    return d
  }

  /** Store the content of a file; small files in one read, large ones streamed. */
  async putFile(abs: string, size: number, onBytes?: (n: number) => void): Promise<PutResult> {
    if (size < SMALL) {
      // Into one reused buffer (the pack copies what it keeps): no buffer per file to allocate and collect.
      const n = readUpTo(os(abs), this.buf)
      // Grown to 1 MiB or more since its stat: stored as the large file it now is.
      if (n === this.buf.length) return this.putLarge(abs, n, onBytes)
      const data = this.buf.subarray(0, n)
      const hash = sha256(data)
      onBytes?.(n)
      // The loose-blob check asks the disk only for an id known to be loose (not one failed
      // access() per small file of a first capture).
      if (this.packs.has(hash) || (this.loose().ids.has(hash) && fs.existsSync(this.pathOf(hash)))) return { hash, size: n }
      this.packs.append(hash, data)
      return { hash, size: n }
    }
    return this.putLarge(abs, size, onBytes)
  }

  private async putLarge(abs: string, size: number, onBytes?: (n: number) => void): Promise<PutResult> {
    // The size of a large blob already kept: most likely the same content, so hash before copying.
    if (this.loose().sizes.has(size)) {
      const r = await hashFileAsync(os(abs), this.bufs, onBytes)
      if (this.has(r.hash)) return { hash: r.hash, size: r.size }
      onBytes = undefined // counted once; the copy below is hashed again
    }
    const tmp = path.join(this.tmpDir, `${crypto.randomUUID()}.tmp`)
    let r: { hash: string; size: number }
    try {
      r = await copyThenHash(abs, tmp, this.bufs, onBytes)
    } catch (err) {
      // A half-copied blob (the disk filled, the source vanished) is worth nothing: not kept.
      fs.rmSync(tmp, { force: true })
      throw err
    }
    const { hash } = r
    const dest = path.join(this.shard(hash), hash)
    if (fs.existsSync(dest)) {
      fs.rmSync(tmp, { force: true })
      return { hash, size: r.size }
    }
    fs.renameSync(tmp, dest)
    this.pending.push(dest)
    this.made.blobs.push(dest)
    this.loose().sizes.add(r.size)
    this.loose().ids.add(hash)
    return { hash, size: r.size }
  }

  /**
   * The loose blobs' ids and sizes, read from disk once (this process owns the store, and every blob
   * it adds is added here). An id or size whose blob was removed since costs a look at the disk or a
   * hash; a blob missing here is at worst stored a second time in a pack.
   */
  private loose(): { ids: Set<string>; sizes: Set<number> } {
    if (this.looseKnown) return this.looseKnown
    const onDisk = this.looseOnDisk()
    return (this.looseKnown = { ids: new Set(onDisk.keys()), sizes: new Set(onDisk.values()) })
  }

  /** Every loose blob file's id and size. */
  private looseOnDisk(): Map<string, number> {
    const out = new Map<string, number>()
    for (const shard of listDir(this.dir)) {
      const d = path.join(this.dir, shard)
      for (const name of listDir(d)) {
        if (!BLOB_ID_RE.test(name)) continue
        try {
          out.set(name, fs.statSync(path.join(d, name)).size)
        } catch {
          /* raced */
        }
      }
    }
    return out
  }

  /** Remember what the store holds now; rollback() removes what was added since. */
  mark(): PackMark {
    this.made = { blobs: [], shards: [] }
    return this.packs.mark()
  }

  /** A failed capture: its blobs out of the store, packs cut back, shard folders it made removed. */
  rollback(m: PackMark): void {
    this.packs.rollback(m)
    for (const f of this.made.blobs) fs.rmSync(f, { force: true })
    for (const d of this.made.shards) {
      this.knownShards.delete(d)
      try {
        fs.rmdirSync(d)
      } catch {
        /* not empty: another blob of the same prefix was there after all */
      }
    }
    this.pending = []
    this.made = { blobs: [], shards: [] }
    this.clearTmp()
  }

  /** Large blobs' copies not yet renamed into place (a failed capture's, a crash's). */
  private clearTmp(): void {
    for (const name of listDir(this.tmpDir)) fs.rmSync(path.join(this.tmpDir, name), { force: true })
  }

  /** Hash a file without storing it (plans compare disk content with recorded hashes). */
  hashFile(abs: string): string {
    const st = fs.statSync(os(abs))
    if (st.size < SMALL) return sha256(fs.readFileSync(os(abs)))
    const hasher = crypto.createHash('sha256')
    const fd = fs.openSync(os(abs), 'r')
    try {
      for (;;) {
        const n = fs.readSync(fd, this.buf, 0, CHUNK, null)
        if (n === 0) break
        hasher.update(this.buf.subarray(0, n))
      }
    } finally {
      fs.closeSync(fd)
    }
    return hasher.digest('hex')
  }

  /** Read a blob and verify its hash (a damaged blob must never be restored). */
  verify(hash: string): boolean {
    const data = this.packs.read(hash)
    if (data) return sha256(data) === hash
    try {
      return this.hashFile(this.pathOf(hash)) === hash
    } catch {
      return false
    }
  }

  /**
   * Make every blob written since the last flush durable. Few blobs: fsync each. Many (a first
   * capture): one syncfs of the store's file system (`sync -f`), far cheaper than 20k fsyncs.
   */
  flush(): void {
    this.packs.flush()
    const files = this.pending
    this.pending = []
    if (files.length === 0) return
    if (files.length > 64 && process.platform === 'linux') {
      try {
        execFileSync('sync', ['-f', this.dir], { stdio: 'ignore' })
        return
      } catch {
        /* fall through to per-file fsync */
      }
    }
    const dirs = new Set<string>()
    for (const f of files) {
      const fd = fs.openSync(f, 'r')
      fs.fsyncSync(fd)
      fs.closeSync(fd)
      dirs.add(path.dirname(f))
    }
    for (const d of dirs) fsyncDir(d)
  }

  /** Every blob id on disk with its size. */
  list(): Map<string, number> {
    const out = this.looseOnDisk()
    for (const [h, e] of this.packs.index) if (!out.has(h)) out.set(h, e.length)
    return out
  }

  /** Delete every blob not in `keep`; also clears temp files left by a crash. */
  sweep(keep: Set<string>): { blobsSwept: number; bytesFreed: number } {
    let { blobsSwept, bytesFreed } = this.packs.sweep(keep)
    for (const [hash, size] of this.list()) {
      if (keep.has(hash) || this.packs.has(hash)) continue
      fs.rmSync(this.pathOf(hash), { force: true })
      blobsSwept++
      bytesFreed += size
    }
    this.clearTmp()
    return { blobsSwept, bytesFreed }
  }
}
