import { describe, expect, it } from 'vitest'
import { checkRequest, hostNames, instanceHostName, isLoopbackBind, readCookie, SessionStore, sessionCookieName } from '../../../web/host-auth'
import { foreignFetchReason } from '../../../core/security/fetch-metadata'

const NAME = 'c0ffee00c0ffee00c0ffee00c0ffee00.localhost'
const names = hostNames('127.0.0.1', 4000, NAME)
const HOST = `${NAME}:4000`
const ORIGIN = `http://${HOST}`
const COOKIE = sessionCookieName(4000)
const sessions = new SessionStore()
const session = sessions.issue()
const cookie = `${COOKIE}=${session}`
const opts = { names, sessions, cookieName: COOKIE, needsSession: true, api: true }

describe('browser-mode guard', () => {
  it('gives each loopback instance a name of its own and answers only to it', () => {
    expect(instanceHostName()).toMatch(/^[0-9a-f]{32}\.localhost$/)
    expect(instanceHostName()).not.toBe(instanceHostName())
    expect(names.canonical).toBe(HOST)
    // 127.0.0.1 and localhost are every port's and every process's: they only forward a token.
    expect([...names.aliases].sort()).toEqual(['127.0.0.1:4000', '[::1]:4000', 'localhost:4000'])
    for (const bind of ['localhost', '::1', '[::1]', '0.0.0.0', '::']) expect(isLoopbackBind(bind), bind).toBe(true)
    // Browsers send *.localhost to 127.0.0.1 and ::1 only: another loopback address keeps its own.
    expect(hostNames('127.0.0.2', 4000, NAME).canonical).toBe('127.0.0.2:4000')
  })
  it('an address given with --host is its own name (an IP literal cannot have one of its own)', () => {
    expect(isLoopbackBind('192.168.1.5')).toBe(false)
    expect(hostNames('192.168.1.5', 4000, NAME)).toEqual({ canonical: '192.168.1.5:4000', aliases: new Set() })
    expect(hostNames('fd00::5', 4000, NAME).canonical).toBe('[fd00::5]:4000')
  })
  it('lets the app’s own requests through', () => {
    expect(checkRequest({ method: 'POST', headers: { host: HOST, cookie, origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' } }, opts).ok).toBe(true)
    expect(checkRequest({ method: 'GET', headers: { host: HOST, cookie } }, opts).ok).toBe(true)
  })
  it('takes only session values it issued: not the token, not another instance’s session', () => {
    expect(checkRequest({ method: 'GET', headers: { host: HOST } }, opts)).toMatchObject({ ok: false, status: 401 })
    expect(checkRequest({ method: 'GET', headers: { host: HOST, cookie: `${COOKIE}=guess` } }, opts)).toMatchObject({ ok: false, status: 401 })
    const other = new SessionStore().issue()
    expect(checkRequest({ method: 'GET', headers: { host: HOST, cookie: `${COOKIE}=${other}` } }, opts)).toMatchObject({ ok: false, status: 401 })
    expect(session).not.toBe(sessions.issue())
  })
  it('refuses 127.0.0.1, a rebound name or another port even with the cookie', () => {
    for (const host of ['127.0.0.1:4000', 'localhost:4000', 'attacker.example:4000', `${NAME}:4001`, 'ffffffffffffffffffffffffffffffff.localhost:4000']) {
      expect(checkRequest({ method: 'GET', headers: { host, cookie } }, opts), host).toMatchObject({ ok: false, status: 421 })
    }
  })
  it('refuses state-changing requests from another origin, another port of the same name included', () => {
    for (const origin of ['https://evil.example', 'null', `http://${NAME}:4001`, 'http://127.0.0.1:4000']) {
      expect(checkRequest({ method: 'POST', headers: { host: HOST, cookie, origin } }, opts), origin).toMatchObject({ ok: false, status: 403 })
    }
  })
  it('refuses API calls a page makes that are not the app’s own fetches, GETs included', () => {
    const api = (meta: Record<string, string>) => checkRequest({ method: 'GET', headers: { host: HOST, cookie, ...meta } }, opts)
    expect(api({ 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'empty' })).toMatchObject({ ok: false, status: 403 })
    expect(api({ 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' })).toMatchObject({ ok: false, status: 403 })
    for (const dest of ['image', 'video', 'iframe', 'document', 'script']) {
      expect(api({ 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': dest }), dest).toMatchObject({ ok: false, status: 403 })
    }
    expect(api({ 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document' })).toMatchObject({ ok: false, status: 403 })
    // The app shell itself is navigated to (typed URL, reload): not an API call.
    expect(checkRequest({ method: 'GET', headers: { host: HOST, cookie, 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document' } }, { ...opts, api: false }).ok).toBe(true)
  })
})

describe('fetch metadata', () => {
  it('the desktop handler checks the destination only (its window has one origin)', () => {
    expect(foreignFetchReason({ site: 'same-origin', dest: 'empty' }, { checkSite: false })).toBeNull()
    expect(foreignFetchReason({}, { checkSite: true })).toBeNull()
    expect(foreignFetchReason({ site: 'same-origin', dest: 'image' }, { checkSite: false })).toMatch(/image/)
    expect(foreignFetchReason({ site: 'cross-site', dest: 'empty' }, { checkSite: false })).toBeNull()
  })
})

describe('readCookie', () => {
  it('finds a cookie among others and keeps = in values', () => {
    expect(readCookie('a=1; retake_session=x=y; b=2', 'retake_session')).toBe('x=y')
    expect(readCookie(undefined, 'a')).toBeNull()
    expect(readCookie('a=1', 'b')).toBeNull()
  })
})
