/**
 * Small JSON documents in the data dir, written atomically (temp file in the same folder → fsync →
 * rename → fsync the folder) so a crash leaves the old or the new file, never half of one.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import type { z } from 'zod'

/**
 * `durable: false` skips the folder's fsync: a power cut may then lose the rename and leave the
 * previous version (whole, it was synced) — for a file where that version is as good. The content
 * itself is always synced before the rename, so a cut can never leave an empty file in its place.
 */
export function writeFileAtomic(file: string, content: string | Buffer, { durable = true } = {}): void {
  const dir = dirname(file)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
  const fd = openSync(tmp, 'w', 0o600)
  try {
    writeSync(fd, typeof content === 'string' ? Buffer.from(content) : content)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, file)
  if (!durable) return
  try {
    const dfd = openSync(dir, 'r')
    try {
      fsyncSync(dfd)
    } finally {
      closeSync(dfd)
    }
  } catch {
    // Some platforms (Windows) cannot open a folder for fsync; the rename is still atomic there.
  }
}

/** Reads and validates a JSON file; a missing file gives the fallback, a corrupt one is set aside. */
export function readJson<T>(file: string, schema: z.ZodType<T>, fallback: T): T {
  let raw: string
  try {
    raw = readFileSync(file, 'utf8')
  } catch {
    return fallback
  }
  try {
    const parsed = schema.safeParse(JSON.parse(raw))
    if (parsed.success) return parsed.data
  } catch {
    // fall through
  }
  // Keep the unreadable file for inspection rather than silently overwriting what the user had.
  try {
    renameSync(file, `${file}.corrupt-${Date.now()}`)
  } catch {
    // ignore
  }
  return fallback
}

export function writeJson(file: string, value: unknown, opts?: { durable?: boolean }): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, opts)
}
