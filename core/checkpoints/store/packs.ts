// Small blobs live in append-only pack files instead of one file each: creating a file per blob
// in the store cost more than reading and hashing them.
// packs/<n>.pack holds raw contents back to back; packs/<n>.idx holds one line per blob,
// "<sha256> <offset> <length>", appended after the bytes. On load, an index line pointing past
// the end of its pack (a torn append) is ignored, so a crash never yields a half blob.
import fs from 'node:fs'
import path from 'node:path'
import { BLOB_ID_RE } from './paths'
import { FILE_MODE, fsyncDir, mkdirPrivate } from './fsutil'
import { writeToStore } from './store-space'

export interface PackLoc {
  file: string
  offset: number
  length: number
}

const PACK_LIMIT = 256 * 1024 * 1024
/**
 * Appended blobs are copied into a batch buffer of this size and written out together when it is
 * full: one write for the contents and one for their index lines, instead of two writes per blob.
 * The copy lets the caller read every file into one reused buffer instead of a new one per file.
 */
const BATCH_BYTES = 4 << 20

/** Where the packs stood before a capture (see PackStore.mark / rollback). */
export interface PackMark {
  last: number
  current: { n: number; size: number; idxSize: number } | null
}

export class PackStore {
  private readonly dir: string
  readonly index = new Map<string, { pack: number; offset: number; length: number }>()
  private current: { n: number; fd: number; idxFd: number; size: number } | null = null
  private dirty = false
  /** Blobs appended since the last mark(), so a failed capture can take them out of the index. */
  private appended: string[] = []
  /** Appended to `current` but not yet written (see BATCH_BYTES); `current.size` counts them. */
  private batch: { buf: Buffer | null; bytes: number; lines: string } = { buf: null, bytes: 0, lines: '' }

  constructor(storeDir: string) {
    this.dir = path.join(storeDir, 'packs')
    mkdirPrivate(this.dir)
    this.load()
  }

  private packFile(n: number): string {
    return path.join(this.dir, `${String(n).padStart(6, '0')}.pack`)
  }
  private idxFile(n: number): string {
    return path.join(this.dir, `${String(n).padStart(6, '0')}.idx`)
  }

  /** The number of the newest pack, 0 when there is none. */
  private lastPack(): number {
    return this.packNumbers().at(-1) ?? 0
  }

  private removePack(n: number): void {
    fs.rmSync(this.packFile(n), { force: true })
    fs.rmSync(this.idxFile(n), { force: true })
  }

  packNumbers(): number[] {
    return fs
      .readdirSync(this.dir)
      .filter((f) => f.endsWith('.pack'))
      .map((f) => Number(f.slice(0, -5)))
      .sort((a, b) => a - b)
  }

  private load(): void {
    for (const n of this.packNumbers()) {
      let size: number
      let text: string
      try {
        size = fs.statSync(this.packFile(n)).size
        text = fs.readFileSync(this.idxFile(n), 'utf8')
      } catch {
        continue
      }
      for (const line of text.split('\n')) {
        const [hash, off, len] = line.split(' ')
        const offset = Number(off)
        const length = Number(len)
        if (!hash || !BLOB_ID_RE.test(hash) || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) continue
        if (offset + length > size) continue // torn append
        if (!this.index.has(hash)) this.index.set(hash, { pack: n, offset, length })
      }
    }
  }

  has(hash: string): boolean {
    return this.index.has(hash)
  }

  /** Where a blob's bytes are (the waiting batch is written out first, so they are in the file). */
  locate(hash: string): PackLoc | null {
    const e = this.index.get(hash)
    if (!e) return null
    if (this.batch.lines && e.pack === this.current?.n) this.writeOut()
    return { file: this.packFile(e.pack), offset: e.offset, length: e.length }
  }

  read(hash: string): Buffer | null {
    const loc = this.locate(hash)
    if (!loc) return null
    const buf = Buffer.allocUnsafe(loc.length)
    const fd = fs.openSync(loc.file, 'r')
    try {
      let got = 0
      while (got < loc.length) {
        const n = fs.readSync(fd, buf, got, loc.length - got, loc.offset + got)
        if (n === 0) break
        got += n
      }
    } finally {
      fs.closeSync(fd)
    }
    return buf
  }

  private open(): NonNullable<PackStore['current']> {
    if (this.current && this.current.size < PACK_LIMIT) return this.current
    this.closeCurrent()
    const n = this.lastPack() + 1
    const fd = fs.openSync(this.packFile(n), 'a', FILE_MODE)
    const idxFd = fs.openSync(this.idxFile(n), 'a', FILE_MODE)
    this.current = { n, fd, idxFd, size: fs.fstatSync(fd).size }
    return this.current
  }

  /**
   * Append one blob (caller checked it is new). Its bytes are copied (the caller may reuse `data`)
   * and written out with the batch, at the latest by flush().
   */
  append(hash: string, data: Uint8Array): void {
    const c = this.open()
    if (this.batch.bytes + data.length > BATCH_BYTES) this.writeOut()
    const offset = c.size
    this.dirty = true
    const b = this.batch
    if (data.length > BATCH_BYTES)
      writeToStore(c.fd, data, this.packFile(c.n)) // no room in any batch: at once
    else {
      b.buf ??= Buffer.allocUnsafe(BATCH_BYTES)
      b.buf.set(data, b.bytes)
      b.bytes += data.length
    }
    b.lines += `${hash} ${offset} ${data.length}\n`
    c.size += data.length
    this.index.set(hash, { pack: c.n, offset, length: data.length })
    this.appended.push(hash)
  }

  /** The waiting batch into the current pack: the contents first, then the index lines that point at them. */
  private writeOut(): void {
    const b = this.batch
    const c = this.current
    if (!c || !b.lines) return
    const { bytes, lines } = b
    b.bytes = 0
    b.lines = ''
    if (bytes) writeToStore(c.fd, b.buf!.subarray(0, bytes), this.packFile(c.n))
    writeToStore(c.idxFd, lines, this.idxFile(c.n))
  }

  /** Remember where the packs end now; rollback() cuts them back to it. */
  mark(): PackMark {
    this.writeOut()
    this.appended = []
    const c = this.current
    return { last: this.lastPack(), current: c ? { n: c.n, size: c.size, idxSize: fs.fstatSync(c.idxFd).size } : null }
  }

  /**
   * Undo every append since `m`: the pack and its index truncated to their lengths then, packs
   * opened since deleted, their blobs out of the index. A write that failed half-way (ENOSPC) left
   * bytes the in-memory length does not count; without the cut, the next blob would be recorded
   * at an offset that holds the torn one's bytes.
   */
  rollback(m: PackMark): void {
    this.batch.bytes = 0
    this.batch.lines = ''
    for (const h of this.appended) this.index.delete(h)
    this.appended = []
    if (this.current && this.current.n !== m.current?.n) this.closeFiles()
    for (const n of this.packNumbers()) if (n > m.last) this.removePack(n)
    if (m.current && this.current?.n === m.current.n) {
      fs.ftruncateSync(this.current.fd, m.current.size)
      fs.ftruncateSync(this.current.idxFd, m.current.idxSize)
      this.current.size = m.current.size
    } else if (m.current) {
      // The pack filled up and was closed during the capture.
      fs.truncateSync(this.packFile(m.current.n), m.current.size)
      fs.truncateSync(this.idxFile(m.current.n), m.current.idxSize)
    }
  }

  /** Make appended blobs durable: the pack's bytes first, then its index. */
  flush(): void {
    if (!this.dirty || !this.current) return
    this.writeOut()
    fs.fsyncSync(this.current.fd)
    fs.fsyncSync(this.current.idxFd)
    fsyncDir(this.dir)
    this.dirty = false
  }

  closeCurrent(): void {
    if (!this.current) return
    this.flush()
    this.closeFiles()
  }

  /** The current pack's files closed as they are (no flush). */
  private closeFiles(): void {
    fs.closeSync(this.current!.fd)
    fs.closeSync(this.current!.idxFd)
    this.current = null
  }

  /**
   * Drop unreferenced blobs: packs holding garbage are rewritten with only the kept blobs into a
   * new pack (made durable first), then the old packs are deleted.
   */
  sweep(keep: Set<string>): { blobsSwept: number; bytesFreed: number } {
    this.closeCurrent()
    const dead = [...this.index].filter(([h]) => !keep.has(h))
    if (dead.length === 0) return { blobsSwept: 0, bytesFreed: 0 }
    const packsWithGarbage = new Set(dead.map(([, e]) => e.pack))
    const moving = [...this.index].filter(([h, e]) => keep.has(h) && packsWithGarbage.has(e.pack))
    for (const [h] of moving) {
      const data = this.read(h)!
      this.index.delete(h)
      this.append(h, data)
    }
    this.closeCurrent()
    let bytesFreed = 0
    for (const [h, e] of dead) {
      bytesFreed += e.length
      this.index.delete(h)
    }
    for (const n of packsWithGarbage) this.removePack(n)
    fsyncDir(this.dir)
    return { blobsSwept: dead.length, bytesFreed }
  }
}
