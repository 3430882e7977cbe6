// Durable file primitives. Every write the engine makes, to the store or to a user's folder, goes
// through a temp file in the same directory → fsync → rename → fsync of the directory, so a crash
// leaves either the old or the new content and never a truncated file.
import fs from 'node:fs'
import path from 'node:path'
import { os } from './os-names'
import { writeToStore } from './store-space'

export const DIR_MODE = 0o700
export const FILE_MODE = 0o600

export function mkdirPrivate(dir: string): void {
  // A folder already there as it should be is left alone: a chmod is a metadata write (it waits on
  // the file system's journal), and a restore's journal folder is asked for on every restore.
  const st = fs.statSync(dir, { throwIfNoEntry: false })
  if (st?.isDirectory() && (st.mode & 0o7777) === DIR_MODE) return
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE })
  // mkdir's mode is filtered by the umask; chmod makes 0700 exact.
  fs.chmodSync(dir, DIR_MODE)
}

export function fsyncDir(dir: string): void {
  let fd: number | null = null
  try {
    fd = fs.openSync(os(dir), 'r')
    fs.fsyncSync(fd)
  } catch (err) {
    // Some file systems (and Windows) refuse fsync on a directory; the rename itself still holds.
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'EBADF') throw err
  } finally {
    if (fd !== null) fs.closeSync(fd)
  }
}

let tmpCounter = 0
/**
 * A temp file beside `target`: unique by the restore's tag, the process and a counter, and short
 * whatever the target's name (a name may take all 255 bytes a folder entry allows; one built from
 * it overflowed, and such a file could never be put back).
 */
export function tempNameFor(target: string, tag: string): string {
  return path.join(path.dirname(target), `.retake-${tag}-${process.pid}-${++tmpCounter}.tmp`)
}
/** Temp files the engine may leave behind after a crash (cleaned on recovery); older versions put the target's name first. */
export const TEMP_RE = /^\.(?:.*\.)?retake-.*\.tmp$/

/** Atomically replace `target` with `data` (`mode`: exact, whatever the umask); nothing half-written stays behind. */
export function writeAtomicSync(target: string, data: string | Uint8Array, opts: { mode?: number; tag?: string } = {}): void {
  const tmp = tempNameFor(target, opts.tag ?? 'w')
  const fd = fs.openSync(tmp, 'wx', opts.mode ?? FILE_MODE)
  try {
    writeToStore(fd, data, tmp)
    if (opts.mode !== undefined) fs.fchmodSync(fd, opts.mode)
    fs.fsyncSync(fd)
  } catch (err) {
    fs.closeSync(fd)
    fs.rmSync(tmp, { force: true })
    throw err
  }
  fs.closeSync(fd)
  try {
    fs.renameSync(tmp, target)
  } catch (err) {
    fs.rmSync(tmp, { force: true })
    throw err
  }
  fsyncDir(path.dirname(target))
}

export function writeJsonAtomic(target: string, value: unknown): void {
  writeAtomicSync(target, JSON.stringify(value), { mode: FILE_MODE, tag: 'j' })
}

/** A folder's names; none when it cannot be read (gone, not a folder). */
export function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir)
  } catch {
    return []
  }
}

export function readJson<T = unknown>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T
  } catch {
    return null
  }
}

/** Append one line and fsync it (journal steps). */
export function appendLineSync(fd: number, line: string): void {
  fs.writeSync(fd, line + '\n')
  fs.fsyncSync(fd)
}

export function dirSize(dir: string): number {
  let total = 0
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const e of entries) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) total += dirSize(p)
    else {
      try {
        total += fs.lstatSync(p).size
      } catch {
        /* raced with a delete */
      }
    }
  }
  return total
}
