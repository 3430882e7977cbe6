/**
 * Attacks from other local origins on a logged-in browser, in Debian's Chromium against a real
 * opencode server behind browser mode's host:
 * - a page on another port of 127.0.0.1 (or localhost, or another .localhost name) must receive
 *   neither the access token nor a session it could use — cookies ignore ports;
 * - a process that takes Retake's port after it stopped gets the open tab back: what the tab sends
 *   it must be worthless to a later Retake on that port;
 * - a GET that names a folder (an `<img>`, an iframe, a no-cors fetch, a navigation, an image in
 *   the app's own page as a model's answer could hold) must never make opencode open that folder:
 *   opening it loads the folder's `.opencode/plugin/*.js`, code run as the user. A positive control
 *   shows that the victim's plugin does run when opencode is asked directly.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { chromium, type Browser, type BrowserContext, type Page, type Request as PwRequest, type Response as PwResponse } from 'playwright-core'
import type { RetakeCore } from '../../core/retake-core'
import { offlineCore } from '../support/core-fixture'
import { startWebHost, type WebHost } from '../../web/host'
import { CHROMIUM } from '../e2e/harness'
import { hostFetch } from '../support/host-fetch'

const root = mkdtempSync(join(tmpdir(), 'retake-origins-'))
const staticDir = join(root, 'renderer')
const project = join(root, 'project')
let core: RetakeCore
let browser: Browser
let context: BrowserContext
let page: Page
let host: WebHost | undefined
const others: http.Server[] = []

/** A folder whose opencode plugin writes a marker file when opencode opens the folder. */
function victimFolder(name: string): { dir: string; marker: string } {
  const dir = join(root, name)
  const marker = join(root, `${name}.PWNED`)
  mkdirSync(join(dir, '.opencode', 'plugin'), { recursive: true })
  const plugin = `import { writeFileSync } from 'node:fs'\nexport const Pwn = async () => { writeFileSync(${JSON.stringify(marker)}, 'ran'); return {} }\n`
  writeFileSync(join(dir, '.opencode', 'plugin', 'x.js'), plugin)
  return { dir, marker }
}

interface Seen {
  url: string
  headers: http.IncomingHttpHeaders
}

/** Another local HTTP server (the attacker's), recording every request it gets. */
async function otherServer(page: (req: http.IncomingMessage) => string, port = 0): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = []
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers })
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end(page(req))
  })
  others.push(server)
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, seen }
}

/** Opens the printed URL as the user does: the token buys the session cookie. */
async function logInInBrowser(h: WebHost) {
  await page.goto(h.url)
  expect(new URL(page.url()).origin).toBe(h.origin)
  expect(page.url()).not.toContain('token=')
}

/** Every answer the page gets from Retake's origin while `act` runs, once all requests ended. */
async function retakeAnswers(h: WebHost, act: () => Promise<void>): Promise<{ url: string; status: number }[]> {
  const answers: { url: string; status: number }[] = []
  const pending = new Set<PwRequest>()
  const portOf = new URL(h.origin).port
  const mine = (r: PwRequest) => new URL(r.url()).port === portOf
  const onRequest = (r: PwRequest) => mine(r) && pending.add(r)
  const onResponse = (r: PwResponse) => {
    if (!mine(r.request())) return
    answers.push({ url: r.url(), status: r.status() })
  }
  const onDone = (r: PwRequest) => pending.delete(r)
  context.on('request', onRequest)
  context.on('response', onResponse)
  context.on('requestfinished', onDone)
  context.on('requestfailed', onDone)
  try {
    await act()
    await expect.poll(() => pending.size, { timeout: 20_000 }).toBe(0)
  } finally {
    context.off('request', onRequest)
    context.off('response', onResponse)
    context.off('requestfinished', onDone)
    context.off('requestfailed', onDone)
  }
  return answers
}

beforeAll(async () => {
  mkdirSync(staticDir, { recursive: true })
  mkdirSync(project, { recursive: true })
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Retake</title>')
  core = offlineCore(root, project)
  await core.start()
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] })
})

afterEach(async () => {
  await context?.close()
  await host?.close()
  host = undefined
  for (const s of others.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

afterAll(async () => {
  await browser?.close()
  await core?.stop()
  rmSync(root, { recursive: true, force: true })
})

async function freshSession(token?: string, port = 0) {
  host = await startWebHost({ core, staticDir, port, token })
  context = await browser.newContext()
  page = await context.newPage()
  await logInInBrowser(host)
  return host
}

describe('other local origins', () => {
  it('a page on another port of 127.0.0.1 receives neither the token nor a usable session', async () => {
    const h = await freshSession()
    const token = new URL(h.url).searchParams.get('token')!
    const [cookie] = await context.cookies()
    // Scoped to this run's own name, and not the token.
    expect(cookie).toMatchObject({ domain: new URL(h.origin).hostname, httpOnly: true, sameSite: 'Strict' })
    expect(cookie!.value).not.toContain(token)

    const q = `directory=${encodeURIComponent(project)}`
    const evil = await otherServer(
      () =>
        `<img src="${h.origin}/opencode/session?${q}"><script>fetch(${JSON.stringify(`${h.origin}/api/rpc/app.info`)}, { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{}' })</script>`,
    )
    const answers = await retakeAnswers(h, async () => {
      for (const name of ['127.0.0.1', 'localhost', 'evil.localhost']) await page.goto(`http://${name}:${evil.port}/`)
    })
    expect(evil.seen.length).toBeGreaterThanOrEqual(3)
    for (const req of evil.seen) {
      expect(req.headers.cookie, req.url).toBeUndefined()
      expect(JSON.stringify(req), req.url).not.toContain(token)
      expect(JSON.stringify(req), req.url).not.toContain(cookie!.value)
    }
    // What those pages sent to Retake was refused (no cookie came with it: another site).
    expect(answers.length).toBeGreaterThan(0)
    for (const a of answers) expect([401, 403], a.url).toContain(a.status)
  })

  it('a process that takes the port after Retake stopped gets nothing a later Retake accepts', async () => {
    const h = await freshSession('same-token-both-runs')
    const port = Number(new URL(h.origin).port)
    const [cookie] = await context.cookies()
    await h.close()
    host = undefined
    // The squatter answers the open tab when it comes back (a reload, as after sleep).
    const squatter = await otherServer(() => '<title>not Retake</title>', port)
    await page.reload()
    expect(squatter.seen.length).toBeGreaterThan(0)
    for (const req of squatter.seen) {
      expect(req.url, 'the token left the address bar at login').not.toContain('token')
      expect(req.headers.host).toBe(new URL(h.origin).host)
    }
    const captured = squatter.seen.find((r) => r.headers.cookie)?.headers.cookie
    expect(captured).toBe(`${cookie!.name}=${cookie!.value}`)
    for (const s of others.splice(0)) {
      s.closeAllConnections()
      await new Promise((r) => s.close(r))
    }
    // A later Retake on that port — even with the same token (RETAKE_WEB_TOKEN) — refuses it.
    host = await startWebHost({ core, staticDir, port, token: 'same-token-both-runs' })
    const replay = (origin: string) => hostFetch(`${origin}/api/rpc/app.info`, { method: 'POST', body: '{}', headers: { cookie: captured!, 'x-retake-rpc': '1' } })
    expect((await replay(h.origin)).status).toBe(421)
    expect((await replay(host.origin)).status).toBe(401)
  })
})

describe('a GET that names a folder', () => {
  it('never makes opencode open it: not from another port, not as an image in Retake’s own page, not typed', async () => {
    const victim = victimFolder('victim')
    const h = await freshSession()
    const target = `${h.origin}/opencode/session?directory=${encodeURIComponent(victim.dir)}`
    const evil = await otherServer(
      () =>
        `<img src="${target}"><iframe src="${target}"></iframe><video src="${target}"></video>` +
        `<script>fetch(${JSON.stringify(target)}, { mode: 'no-cors', credentials: 'include' })</script>` +
        `<a id="go" href="${target}">go</a>`,
    )
    const answers = await retakeAnswers(h, async () => {
      await page.goto(`http://127.0.0.1:${evil.port}/`)
      await page.goto(`http://localhost:${evil.port}/`)
      await page.click('#go')
      // Back on Retake's own origin, with its session: an image in the page (as a model's answer
      // can hold one), a typed address, and a fetch naming a folder that was never opened.
      await page.goto(`${h.origin}/`)
      await page.evaluate((src) => {
        const img = document.createElement('img')
        img.src = src
        document.body.append(img)
      }, target)
      const status = await page.evaluate((src) => fetch(src).then((r) => r.status), target)
      expect(status).toBe(403)
      await page.goto(target).catch(() => null)
    })
    expect(answers.filter((a) => a.url.startsWith(target)).length).toBeGreaterThanOrEqual(4)
    for (const a of answers.filter((x) => x.url.includes('/opencode/'))) expect([401, 403], a.url).toContain(a.status)
    expect(existsSync(victim.marker)).toBe(false)

    // The opened project still works from the page, and the victim's plugin is real: asked
    // directly (not through Retake), opencode runs it.
    const own = await page.evaluate((src) => fetch(src).then((r) => r.status), `${h.origin}/opencode/session?directory=${encodeURIComponent(project)}`)
    expect(own).toBe(200)
    const control = victimFolder('control')
    await fetch(`${core.connection.url}/session?directory=${encodeURIComponent(control.dir)}`, { headers: { authorization: core.connection.authorization() } })
    await expect.poll(() => existsSync(control.marker), { timeout: 20_000 }).toBe(true)
    expect(existsSync(victim.marker)).toBe(false)
  })
})
