import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppStores } from '../../../core/store/app-stores'

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'retake-stores-'))
  dirs.push(d)
  return d
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

const saved = {
  sessionID: 'ses_a',
  messageID: 'msg_b',
  directory: '/p',
  parts: [{ type: 'text' as const, text: 'kept' }],
  model: { providerID: 'x', modelID: 'y' },
  savedAt: 1,
  state: 'pending' as const,
}

describe('AppStores', () => {
  it('refuses extra folders that do not exist or are not absolute, and a missing config file', () => {
    const s = new AppStores(tmp())
    expect(() => s.updateSettings({ extraFolders: [{ path: '/definitely/not/here', shared: false }] })).toThrow(/not an existing folder/)
    expect(() => s.updateSettings({ extraFolders: [{ path: 'relative/dir', shared: false }] })).toThrow(/full path/)
    expect(() => s.updateSettings({ opencodeConfigPath: '/nope/opencode.json' })).toThrow(/No opencode config file/)
    const real = tmp()
    expect(s.updateSettings({ extraFolders: [{ path: real, shared: true }] }).extraFolders).toEqual([{ path: real, shared: true }])
  })

  it('writes its files privately and atomically, and survives a corrupt file without losing it', () => {
    const dir = tmp()
    const s = new AppStores(dir)
    s.saveRetake(saved)
    const file = join(dir, 'saved-retakes', 'ses_a.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    writeFileSync(join(dir, 'settings.json'), '{ torn')
    expect(s.getSettings().extraFolders).toEqual([])
    // The unreadable file was set aside for inspection, not overwritten.
    const aside = readdirSync(dir).find((n) => n.startsWith('settings.json.corrupt'))!
    expect(readFileSync(join(dir, aside), 'utf8')).toBe('{ torn')
  })

  it('loads saved retakes an earlier version kept in retries/, and carries them over on the next write', () => {
    const dir = tmp()
    mkdirSync(join(dir, 'retries'))
    writeFileSync(join(dir, 'retries', 'ses_a.json'), JSON.stringify([saved]))
    const s = new AppStores(dir)
    expect(s.savedRetakes('ses_a')).toEqual([saved])
    const other = { ...saved, messageID: 'msg_c' }
    s.saveRetake(other)
    expect(s.savedRetakes('ses_a')).toEqual([saved, other])
    expect(existsSync(join(dir, 'retries', 'ses_a.json'))).toBe(false)
    s.dropRetake('ses_a', 'msg_b')
    expect(s.savedRetakes('ses_a')).toEqual([other])
  })

  it('keeps one saved retake per message and forgets a deleted session’s saved retakes and attempts', () => {
    const dir = tmp()
    const s = new AppStores(dir)
    s.saveRetake(saved)
    s.saveRetake({ ...saved, state: 'failed', error: 'prompt: 500' })
    expect(s.savedRetakes('ses_a')).toEqual([{ ...saved, state: 'failed', error: 'prompt: 500' }])
    s.addAttempt({ sessionID: 'ses_a', messageID: 'msg_b', at: 1, messages: [] })
    s.forgetSession('ses_a')
    expect(s.savedRetakes('ses_a')).toEqual([])
    expect(s.attempts('ses_a')).toEqual([])
    expect(existsSync(join(dir, 'attempts', 'ses_a.json'))).toBe(false)
  })

  it('validates a project folder and keeps the recent list newest first without duplicates', () => {
    const s = new AppStores(tmp())
    const a = tmp()
    const b = tmp()
    mkdirSync(join(a, 'sub'))
    s.openProject(a)
    s.openProject(b)
    s.openProject(a)
    expect(s.recentProjects().map((p) => p.path)).toEqual([a, b])
    writeFileSync(join(a, 'file.txt'), 'x')
    expect(() => s.openProject(join(a, 'file.txt'))).toThrow(/is a file, not a folder/)
    expect(() => s.openProject(join(a, 'missing'))).toThrow(/No folder/)
  })
})
