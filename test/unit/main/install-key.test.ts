/**
 * The install's attachment key: made once per data dir, kept across restarts (so blocks inlined
 * before a restart still show as attachments), handed to the renderer in app.info.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRetakeCore } from '../../../core/retake-core'
import { loadOrCreateInstallKey } from '../../../core/store/install-key'

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'retake-key-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function appInfoKey(dataDir: string): Promise<string> {
  const core = createRetakeCore({ mode: 'browser', dataDir, appRoot: process.cwd(), version: 't' })
  try {
    const r = await core.dispatch('app.info', {}, {})
    if (!r.ok) throw new Error(r.error.message)
    return (r.data as { attachmentKey: string }).attachmentKey
  } finally {
    await core.stop()
  }
}

describe('the install’s attachment key', () => {
  it('is random per data dir, the same after a restart, and readable only by the user', async () => {
    const dir = tmp()
    const first = await appInfoKey(dir)
    expect(first).toMatch(/^[0-9a-f]{64}$/)
    expect(await appInfoKey(dir)).toBe(first)
    expect(await appInfoKey(tmp())).not.toBe(first)
    if (process.platform !== 'win32') expect(statSync(join(dir, 'attachment-key')).mode & 0o077).toBe(0)
  })

  it('is created once; a damaged file is set aside and replaced, so the app still starts', () => {
    const dir = tmp()
    const file = join(dir, 'attachment-key')
    const keys = Array.from({ length: 5 }, () => loadOrCreateInstallKey(file))
    expect(new Set(keys).size).toBe(1)
    expect(readFileSync(file, 'utf8').trim()).toBe(keys[0])
    writeFileSync(file, 'garbage')
    const next = loadOrCreateInstallKey(file)
    expect(next).toMatch(/^[0-9a-f]{64}$/)
    expect(readdirSync(dir).filter((f) => f.startsWith('attachment-key.corrupt-'))).toHaveLength(1)
  })
})
