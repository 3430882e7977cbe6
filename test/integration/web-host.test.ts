/**
 * Browser mode's host in front of a real opencode server: the token/cookie guard, the bridge over
 * HTTP, and the credentialed proxy (including the event stream). The opencode password must never
 * appear in anything the browser receives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RetakeCore } from '../../core/retake-core'
import { offlineCore } from '../support/core-fixture'
import { startWebHost, type WebHost } from '../../web/host'
import { createAppProtocolHandler } from '../../electron/desktop/app-protocol'
import { hostFetch, logIn } from '../support/host-fetch'

const root = mkdtempSync(join(tmpdir(), 'retake-host-'))
const staticDir = join(root, 'renderer')
const project = join(root, 'project')
const elsewhere = join(root, 'elsewhere')
let core: RetakeCore
let host: WebHost
let cookie = ''
const received: string[] = []

async function call(path: string, init: RequestInit = {}) {
  const res = await hostFetch(`${host.origin}${path}`, { ...init, headers: { cookie, ...(init.headers as Record<string, string>) } })
  const text = await res.text()
  received.push(text, JSON.stringify([...res.headers]))
  return { status: res.status, text, headers: res.headers, json: () => JSON.parse(text) }
}
const rpc = (channel: string, body: unknown = {}) =>
  call(`/api/rpc/${channel}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-retake-rpc': '1' } })

beforeAll(async () => {
  mkdirSync(staticDir, { recursive: true })
  mkdirSync(project, { recursive: true })
  mkdirSync(elsewhere, { recursive: true })
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Retake</title>')
  core = offlineCore(root, project)
  host = await startWebHost({ core, staticDir, port: 0 })
  await core.start()
})

afterAll(async () => {
  await host?.close()
  await core?.stop()
  rmSync(root, { recursive: true, force: true })
})

describe('browser-mode host', () => {
  it('refuses the API and the proxy without the session from the printed URL', async () => {
    expect((await rpc('app.info')).status).toBe(401)
    expect((await call('/opencode/session')).status).toBe(401)
    expect((await call('/')).status).toBe(401)
    const wrong = await call('/?token=guess')
    expect(wrong.status).toBe(401)
  })

  it('lives on an origin of its own: a random .localhost name, printed in the URL', () => {
    expect(host.origin).toMatch(/^http:\/\/[0-9a-f]{32}\.localhost:\d+$/)
    expect(host.url).toMatch(new RegExp(`^${host.origin}/\\?token=`))
  })

  it('exchanges the URL’s token for an HttpOnly SameSite=Strict cookie that is not the token', async () => {
    const res = await hostFetch(host.url)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${host.origin}/`)
    const setCookie = res.headers.get('set-cookie')!
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Strict/)
    expect(setCookie).not.toMatch(/Domain=/i)
    cookie = setCookie.split(';')[0]!
    const token = new URL(host.url).searchParams.get('token')!
    expect(cookie).not.toContain(token)
    // The token itself is no session: whoever learns it from a cookie has nothing.
    const asCookie = await hostFetch(`${host.origin}/`, { headers: { cookie: `${cookie.split('=')[0]}=${token}` } })
    expect(asCookie.status).toBe(401)
  })

  it('on 127.0.0.1 only passes a valid token on to its own origin, and answers nothing else', async () => {
    const port = new URL(host.origin).port
    const token = new URL(host.url).searchParams.get('token')!
    const viaIp = await hostFetch(`http://127.0.0.1:${port}/?token=${token}`)
    expect(viaIp.status).toBe(303)
    expect(viaIp.headers.get('location')).toBe(`${host.origin}/?token=${token}`)
    expect(viaIp.headers.get('set-cookie')).toBeNull()
    for (const path of ['/?token=guess', '/', '/api/rpc/app.info', `/opencode/session?directory=${encodeURIComponent(project)}`]) {
      const res = await hostFetch(`http://127.0.0.1:${port}${path}`, { headers: { cookie } })
      expect(res.status, path).toBe(421)
      // Its name is told only to holders of the token.
      expect(await res.text(), path).not.toContain(new URL(host.origin).hostname)
    }
  })

  it('a session of one instance is refused by another on the same port (one that took the port after it stopped)', async () => {
    const first = await startWebHost({ core, staticDir, port: 0, token: 'same-token' })
    const port = Number(new URL(first.origin).port)
    const stolen = await logIn(first.url)
    expect((await hostFetch(`${first.origin}/`, { headers: { cookie: stolen } })).status).toBe(200)
    await first.close()
    const second = await startWebHost({ core, staticDir, port, token: 'same-token' })
    try {
      expect(new URL(second.origin).hostname).not.toBe(new URL(first.origin).hostname)
      // The open tab comes back to its old origin: that name is not this instance's.
      expect((await hostFetch(`${first.origin}/api/rpc/app.info`, { method: 'POST', headers: { cookie: stolen, 'x-retake-rpc': '1' }, body: '{}' })).status).toBe(421)
      // Replayed under the new instance's own name: not a session it issued.
      expect((await hostFetch(`${second.origin}/api/rpc/app.info`, { method: 'POST', headers: { cookie: stolen, 'x-retake-rpc': '1' }, body: '{}' })).status).toBe(401)
      expect((await hostFetch(`${second.origin}/`, { headers: { cookie: stolen } })).status).toBe(401)
      // Its own login still works.
      expect((await hostFetch(`${second.origin}/`, { headers: { cookie: await logIn(second.url) } })).status).toBe(200)
    } finally {
      await second.close()
    }
  })

  it('never redirects off its own origin, whatever path carries the token', async () => {
    const token = new URL(host.url).searchParams.get('token')!
    // Sent as written (fetch would normalise the path first; a hand-made request does not).
    const rawGet = (path: string) =>
      new Promise<{ status: number; location: string }>((resolve, reject) => {
        const u = new URL(host.origin)
        http
          .get({ host: '127.0.0.1', port: u.port, path, headers: { host: u.host } }, (res) => {
            res.resume()
            resolve({ status: res.statusCode!, location: String(res.headers.location) })
          })
          .on('error', reject)
      })
    for (const path of ['/.//evil.example/', '//evil.example/', '/./\\evil.example', '/..//evil.example', '/%2F%2Fevil.example']) {
      const res = await rawGet(`${path}?token=${token}`)
      expect(res.status, path).toBe(303)
      const location = new URL(res.location, `${host.origin}/`)
      expect(location.origin, path).toBe(host.origin)
    }
  })

  it('forwards only the API routes Retake uses, and opencode content never as a page', async () => {
    const q = `directory=${encodeURIComponent(project)}`
    const list = await call(`/opencode/session?${q}`)
    expect(list.status).toBe(200)
    expect(list.headers.get('x-content-type-options')).toBe('nosniff')
    expect(list.headers.get('content-disposition')).toBeNull()
    // opencode's own web app and its file routes are not reachable on Retake's origin.
    for (const path of ['/opencode/', `/opencode/file/content?path=evil.html&${q}`, `/opencode/file?path=.&${q}`, '/opencode/global/config']) {
      const res = await call(path)
      expect(res.status, path).toBe(403)
      expect(res.headers.get('content-type'), path).toMatch(/application\/json/)
    }
  })

  it('serves the renderer with a strict CSP', async () => {
    const res = await call('/')
    expect(res.status).toBe(200)
    expect(res.text).toContain('<title>Retake</title>')
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-eval')
  })

  it('answers bridge channels with the envelope, validating input', async () => {
    expect((await rpc('app.info')).json()).toEqual({
      ok: true,
      data: { mode: 'browser', version: '0.0.0-test', initialProject: project, canPickFolder: false, attachmentKey: expect.stringMatching(/^[0-9a-f]{64}$/) },
    })
    expect((await rpc('server.status')).json()).toMatchObject({ ok: true, data: { state: 'ready', kind: 'embedded' } })
    expect((await rpc('projects.open', { path: join(root, 'missing') })).json()).toMatchObject({
      ok: false,
      error: { code: 'bad-input', message: expect.stringContaining('No folder') },
    })
    expect((await rpc('projects.open', { path: project })).json()).toMatchObject({ ok: true, data: { path: project, name: 'project' } })
    expect((await rpc('projects.recent')).json()).toMatchObject({ ok: true, data: [{ path: project }] })
    expect((await rpc('projects.pick')).json()).toMatchObject({ ok: false, error: { code: 'unavailable' } })
  })

  it('never lets a request have opencode open a folder that was not opened as a project', async () => {
    const before = await rpc('projects.recent')
    for (const [path, headers] of [
      [`/opencode/session?directory=${encodeURIComponent(elsewhere)}`, {}],
      ['/opencode/session', { 'x-opencode-directory': encodeURIComponent(elsewhere) }],
      [`/opencode/session?directory=${encodeURIComponent(`${project}/../elsewhere`)}`, {}],
      ['/opencode/session', {}],
    ] as const) {
      const res = await call(path, { headers })
      expect(res.status, path).toBe(403)
      expect(res.json().data.message, path).toMatch(/opened as a project|name its project folder/)
    }
    const post = await call(`/opencode/session?directory=${encodeURIComponent(elsewhere)}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
    expect(post.status).toBe(403)
    expect((await rpc('projects.recent')).json()).toEqual(before.json())
  })

  it('refuses API calls a page makes that are not the app’s own fetches, even with the session', async () => {
    const q = `directory=${encodeURIComponent(project)}`
    for (const [site, dest] of [
      ['same-origin', 'image'],
      ['same-origin', 'document'],
      ['same-site', 'empty'],
      ['cross-site', 'image'],
      ['none', 'document'],
    ]) {
      const res = await call(`/opencode/session?${q}`, { headers: { 'sec-fetch-site': site!, 'sec-fetch-dest': dest! } })
      expect(res.status, `${site} ${dest}`).toBe(403)
    }
    expect((await call(`/opencode/session?${q}`, { headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' } })).status).toBe(200)
    // The app shell itself is opened by typing its address.
    expect((await call('/', { headers: { 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document' } })).status).toBe(200)
  })

  it('refuses cross-origin calls and calls without the RPC header', async () => {
    const evil = await call('/api/rpc/app.info', { method: 'POST', body: '{}', headers: { origin: 'https://evil.example', 'x-retake-rpc': '1' } })
    expect(evil.status).toBe(403)
    const simple = await call('/api/rpc/app.info', { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } })
    expect(simple.status).toBe(405)
  })

  it('proxies opencode with the server’s credentials', async () => {
    const created = await call(`/opencode/session?directory=${encodeURIComponent(project)}`, {
      method: 'POST',
      body: JSON.stringify({ title: 'through the proxy' }),
      headers: { 'content-type': 'application/json' },
    })
    expect(created.status).toBe(200)
    expect(created.json()).toMatchObject({ title: 'through the proxy', directory: project })
    const list = await call(`/opencode/session?directory=${encodeURIComponent(project)}`)
    expect(list.json().map((s: { title: string }) => s.title)).toContain('through the proxy')
    expect(list.headers.get('www-authenticate')).toBeNull()
  })

  it('streams the opencode event stream through the proxy', async () => {
    const ctrl = new AbortController()
    const res = await hostFetch(`${host.origin}/opencode/event?directory=${encodeURIComponent(project)}`, { headers: { cookie }, signal: ctrl.signal })
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/)
    const reader = res.body!.getReader()
    const { value } = await reader.read()
    expect(new TextDecoder().decode(value)).toContain('server.connected')
    ctrl.abort()
  })

  it('never sends the opencode password to the browser', () => {
    const secret = core.connection.authorization().slice('Basic '.length)
    const password = Buffer.from(secret, 'base64').toString().split(':')[1]
    expect(password.length).toBeGreaterThan(20)
    for (const body of received) {
      expect(body).not.toContain(password)
      expect(body).not.toContain(secret)
    }
  })
})

describe('desktop app:// protocol handler (same core)', () => {
  it('serves the renderer with the CSP and refuses paths that leave it', async () => {
    const handle = createAppProtocolHandler(core, staticDir)
    const ok = await handle(new Request('app://retake/index.html'))
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(await ok.text()).toContain('<title>Retake</title>')
    // The URL parser already folds %2e%2e away; what reaches the resolver encoded is refused.
    const dotted = await handle(new Request('app://retake/%2e%2e/opencode.json'))
    expect(dotted.status).toBe(404)
    expect((await handle(new Request('app://retake/..%2fopencode.json'))).status).toBe(400)
    expect((await handle(new Request('app://retake/%5c%5cserver%5cshare'))).status).toBe(400)
    expect((await handle(new Request('app://other/index.html'))).status).toBe(404)
  })

  it('proxies /opencode with the credentials the renderer never has', async () => {
    const handle = createAppProtocolHandler(core, staticDir)
    const res = await handle(new Request(`app://retake/opencode/session?directory=${encodeURIComponent(project)}`))
    expect(res.status).toBe(200)
    const sessions = (await res.json()) as { title: string }[]
    expect(sessions.map((s) => s.title)).toContain('through the proxy')
    const posted = await handle(
      new Request(`app://retake/opencode/session?directory=${encodeURIComponent(project)}`, {
        method: 'POST',
        body: JSON.stringify({ title: 'from app://' }),
        headers: { 'content-type': 'application/json' },
      }),
    )
    expect(posted.status).toBe(200)
    expect(await posted.json()).toMatchObject({ title: 'from app://' })
  })
})
