import { describe, expect, it } from 'vitest'
import { allowedHosts, checkRequest, readCookie, sessionCookieName } from '../../../web/host-auth'

const hosts = allowedHosts('127.0.0.1', 4000)
const SESSION_COOKIE = sessionCookieName(4000)
const opts = { secret: 's3cret', hosts, origin: 'http://127.0.0.1:4000', needsSession: true, cookieName: SESSION_COOKIE }
const cookie = `${SESSION_COOKIE}=s3cret`

describe('browser-mode guard', () => {
  it('lets the app’s own requests through', () => {
    expect(checkRequest({ method: 'POST', headers: { host: '127.0.0.1:4000', cookie, origin: 'http://127.0.0.1:4000' } }, opts).ok).toBe(true)
    expect(checkRequest({ method: 'GET', headers: { host: 'localhost:4000', cookie } }, opts).ok).toBe(true)
  })
  it('refuses a request without the session cookie or with a wrong one', () => {
    expect(checkRequest({ method: 'GET', headers: { host: '127.0.0.1:4000' } }, opts)).toMatchObject({ ok: false, status: 401 })
    expect(checkRequest({ method: 'GET', headers: { host: '127.0.0.1:4000', cookie: `${SESSION_COOKIE}=guess` } }, opts)).toMatchObject({ ok: false, status: 401 })
  })
  it('refuses a rebound host name even with the cookie', () => {
    expect(checkRequest({ method: 'GET', headers: { host: 'attacker.example:4000', cookie } }, opts)).toMatchObject({ ok: false, status: 421 })
    expect(checkRequest({ method: 'GET', headers: { host: '127.0.0.1:4001', cookie } }, opts)).toMatchObject({ ok: false, status: 421 })
  })
  it('reads only its own instance’s cookie: another port’s login is not this one’s', () => {
    expect(sessionCookieName(4000)).not.toBe(sessionCookieName(4001))
    const both = `${sessionCookieName(4001)}=other; ${SESSION_COOKIE}=s3cret`
    expect(checkRequest({ method: 'GET', headers: { host: '127.0.0.1:4000', cookie: both } }, opts).ok).toBe(true)
    expect(checkRequest({ method: 'GET', headers: { host: '127.0.0.1:4000', cookie: `${sessionCookieName(4001)}=s3cret` } }, opts)).toMatchObject({ ok: false, status: 401 })
  })
  it('refuses state-changing requests from another origin', () => {
    expect(checkRequest({ method: 'POST', headers: { host: '127.0.0.1:4000', cookie, origin: 'https://evil.example' } }, opts)).toMatchObject({ ok: false, status: 403 })
    expect(checkRequest({ method: 'POST', headers: { host: '127.0.0.1:4000', cookie, origin: 'null' } }, opts)).toMatchObject({ ok: false, status: 403 })
  })
})

describe('readCookie', () => {
  it('finds a cookie among others and keeps = in values', () => {
    expect(readCookie('a=1; retake_session=x=y; b=2', 'retake_session')).toBe('x=y')
    expect(readCookie(undefined, 'a')).toBeNull()
    expect(readCookie('a=1', 'b')).toBeNull()
  })
})
