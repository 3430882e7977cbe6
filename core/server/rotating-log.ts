/** An append-only log file that is rotated (one old generation kept) when it grows past a limit. */
import { closeSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'

export interface RotatingLog {
  write(chunk: string | Buffer): void
  close(): void
}

export function openRotatingLog(file: string, maxBytes = 5 * 1024 * 1024): RotatingLog {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  let fd: number | null = null
  let size = 0
  const open = () => {
    try {
      size = statSync(file).size
    } catch {
      size = 0
    }
    if (size > maxBytes) {
      renameSync(file, `${file}.1`)
      size = 0
    }
    fd = openSync(file, 'a', 0o600)
  }
  return {
    write(chunk) {
      if (fd === null) open()
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      writeSync(fd!, buf)
      size += buf.length
      if (size > maxBytes) {
        closeSync(fd!)
        fd = null
      }
    },
    close() {
      if (fd !== null) closeSync(fd)
      fd = null
    },
  }
}
