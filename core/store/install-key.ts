/**
 * A random key created once per install (per data dir) and kept there. The renderer tags the
 * attachment blocks it inlines with an HMAC under it (shared/attachments/inlined-attachment.ts), so the
 * timeline shows as attachments only the blocks this install made — never text a user typed or
 * pasted that merely looks like one. It gets the key through `app.info`.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, linkSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { writeFileAtomic } from './json-file'

const KEY = /^[0-9a-f]{64}$/

/** The key in `file` (64 hex), created on first use. Two processes starting together agree on one. */
export function loadOrCreateInstallKey(file: string): string {
  const existing = readKey(file)
  if (existing) return existing
  // A damaged key is set aside, as json-file does with a corrupt file: blocks tagged with the old
  // key then show as text (their content intact), which beats an app that will not start.
  if (existsSync(file)) renameSync(file, `${file}.corrupt-${Date.now()}`)
  // Written whole to a temp file, then hard-linked into place: link fails if another process got
  // there first, so nobody ever reads half a key or overwrites one already handed out.
  const tmp = `${file}.${process.pid}.new`
  writeFileAtomic(tmp, `${randomBytes(32).toString('hex')}\n`)
  try {
    linkSync(tmp, file)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  } finally {
    rmSync(tmp, { force: true })
  }
  const key = readKey(file)
  if (!key) throw new Error(`${file} does not hold a valid key`)
  return key
}

function readKey(file: string): string | null {
  try {
    const text = readFileSync(file, 'utf8').trim()
    return KEY.test(text) ? text : null
  } catch {
    return null
  }
}
