/**
 * The saved remote password goes only to the server it was typed for. Two fake opencode servers on
 * loopback record the credentials each health check brings; the core (no Electron) is driven through
 * its router as the settings dialog drives it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createRetakeCore, type RetakeCore } from '../../../core/retake-core'
import { AppStores } from '../../../core/store/app-stores'
import { migrateLegacySecret, passwordFor, secretAfterUpdate, serverOrigin } from '../../../core/store/remote-secret'

interface FakeServer {
  url: string
  /** The password of each health check's Basic credentials, in order. */
  passwords: string[]
  close(): Promise<void>
}

async function fakeOpencode(): Promise<FakeServer> {
  const passwords: string[] = []
  const server: Server = createServer((req, res) => {
    const basic = (req.headers.authorization ?? '').replace(/^Basic /, '')
    passwords.push(Buffer.from(basic, 'base64').toString().split(':').slice(1).join(':'))
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ healthy: true, version: 'fake' }))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return { url: `http://127.0.0.1:${port}`, passwords, close: () => new Promise((r) => server.close(() => r())) }
}

let a: FakeServer
let b: FakeServer
const dirs: string[] = []
const cores: RetakeCore[] = []

beforeAll(async () => {
  a = await fakeOpencode()
  b = await fakeOpencode()
})
afterAll(async () => {
  await a.close()
  await b.close()
})
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.stop()))
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  a.passwords.length = 0
  b.passwords.length = 0
})

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'retake-secret-'))
  dirs.push(d)
  return d
}

function core(dir: string, remote?: { url: string; password?: string }): RetakeCore {
  const c = createRetakeCore({ mode: 'browser', dataDir: dir, appRoot: process.cwd(), version: 't', remote })
  cores.push(c)
  return c
}

async function call(c: RetakeCore, channel: string, input: unknown) {
  const r = await c.dispatch(channel, input, {})
  if (!r.ok) throw new Error(r.error.message)
  return r.data as Record<string, unknown>
}

/** Waits for the next health check `server` receives and returns the password it carried. */
async function nextPassword(server: FakeServer, seen: number): Promise<string> {
  await vi.waitFor(() => expect(server.passwords.length).toBeGreaterThan(seen))
  return server.passwords[seen]
}

describe('the saved remote password is bound to its server', () => {
  it('is sent to the URL it was typed for, and not to a new URL saved without a password', async () => {
    const c = core(dataDir())
    await call(c, 'settings.update', { remoteUrl: a.url, remotePassword: 'pw-for-a' })
    expect(await nextPassword(a, 0)).toBe('pw-for-a')
    await call(c, 'settings.update', { remoteUrl: b.url })
    expect(await nextPassword(b, 0)).toBe('')
    // Going back does not bring it back: it was dropped when the URL changed.
    await call(c, 'settings.update', { remoteUrl: a.url })
    expect(await nextPassword(a, 1)).toBe('')
  })

  it('tells the settings dialog whether a password is saved for the URL, never the password', async () => {
    const c = core(dataDir())
    expect(await call(c, 'settings.update', { remoteUrl: a.url, remotePassword: 'pw-for-a' })).toMatchObject({ remotePasswordSaved: true })
    await nextPassword(a, 0)
    expect(await call(c, 'settings.get', {})).not.toHaveProperty('remotePassword')
    expect(await call(c, 'settings.update', { remoteUrl: b.url })).toMatchObject({ remotePasswordSaved: false })
    expect(await call(c, 'settings.get', {})).toMatchObject({ remoteUrl: b.url, remotePasswordSaved: false })
    // Let the reconnects finish here, so no health check of this test lands in the next one.
    await nextPassword(b, 0)
  })

  it('tells the settings dialog which server is in use and where that came from (the command line wins), no password', async () => {
    const c = core(dataDir())
    expect(await call(c, 'settings.get', {})).toMatchObject({
      serverSetup: { kind: 'embedded', remoteUrl: null, configPath: null, configFrom: null, home: 'user' },
    })
    const saved = await call(c, 'settings.update', { remoteUrl: a.url, remotePassword: 'pw-for-a', useUserOpencodeHome: false })
    expect(saved.serverSetup).toEqual({ kind: 'remote', remoteUrl: a.url, remoteFrom: 'settings', configPath: null, configFrom: null, home: 'separate' })
    expect(JSON.stringify(saved)).not.toContain('pw-for-a')
    await nextPassword(a, 0)

    const fromCli = createRetakeCore({
      mode: 'browser',
      dataDir: dataDir(),
      appRoot: process.cwd(),
      version: 't',
      remote: { url: b.url, password: 'cli-pw' },
      opencodeConfigPath: '/cli/oc.json',
    })
    cores.push(fromCli)
    const view = await call(fromCli, 'settings.get', {})
    expect(view.serverSetup).toMatchObject({ kind: 'remote', remoteUrl: b.url, remoteFrom: 'command line', configPath: '/cli/oc.json', configFrom: 'command line' })
    expect(JSON.stringify(view)).not.toContain('cli-pw')
  })

  it('keeps the password when the same server is saved again, and binds a new one typed with a new URL', async () => {
    const dir = dataDir()
    const c = core(dir)
    await call(c, 'settings.update', { remoteUrl: a.url, remotePassword: 'pw-for-a' })
    await nextPassword(a, 0)
    // The same origin written differently (trailing slash, a path) is the same server.
    await call(c, 'settings.update', { remoteUrl: `${a.url}/opencode/`, useUserOpencodeHome: true })
    expect(await nextPassword(a, 1)).toBe('pw-for-a')
    await call(c, 'settings.update', { remoteUrl: b.url, remotePassword: 'pw-for-b' })
    expect(await nextPassword(b, 0)).toBe('pw-for-b')
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'))).toEqual({ remotePassword: 'pw-for-b', origin: b.url })

    // A later start reads it back for that server only.
    const again = core(dir)
    await again.start()
    expect(b.passwords.at(-1)).toBe('pw-for-b')
    const onCli = core(dir, { url: a.url })
    await onCli.start()
    expect(a.passwords.at(-1)).toBe('')
  })

  it('a legacy secrets file (no URL) stays with the saved URL and never follows a change', async () => {
    const dir = dataDir()
    new AppStores(dir).updateSettings({ remoteUrl: a.url })
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ remotePassword: 'legacy' }))
    const c = core(dir)
    await c.start()
    expect(a.passwords.at(-1)).toBe('legacy')
    await call(c, 'settings.update', { remoteUrl: b.url })
    expect(await nextPassword(b, 0)).toBe('')

    // --remote to another server than the saved one: the legacy password is not sent there either.
    const dir2 = dataDir()
    new AppStores(dir2).updateSettings({ remoteUrl: a.url })
    writeFileSync(join(dir2, 'secrets.json'), JSON.stringify({ remotePassword: 'legacy' }))
    const cli = core(dir2, { url: b.url })
    await cli.start()
    expect(b.passwords.at(-1)).toBe('')
  })
})

describe('remote-secret logic', () => {
  it('normalizes origins and refuses what is not http(s)', () => {
    expect(serverOrigin('HTTP://Example.COM:80/path/')).toBe('http://example.com')
    expect(serverOrigin('https://example.com:443')).toBe('https://example.com')
    expect(serverOrigin('ftp://example.com')).toBeNull()
    expect(serverOrigin('not a url')).toBeNull()
  })

  it('hands a password out only for its origin; an unbound one never', () => {
    expect(passwordFor({ remotePassword: 'p', origin: 'http://a:1' }, 'http://a:1/x')).toBe('p')
    expect(passwordFor({ remotePassword: 'p', origin: 'http://a:1' }, 'http://a:2')).toBeUndefined()
    expect(passwordFor({ remotePassword: 'p' }, 'http://a:1')).toBeUndefined()
    expect(secretAfterUpdate({ remotePassword: 'p', origin: 'http://a:1' }, { url: null, typedPassword: 'q' })).toEqual({})
    expect(migrateLegacySecret({ remotePassword: 'p' }, null)).toEqual({})
    expect(migrateLegacySecret({ remotePassword: 'p' }, 'http://a:1/')).toEqual({ remotePassword: 'p', origin: 'http://a:1' })
  })
})
