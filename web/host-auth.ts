/**
 * Browser mode's guard. The host holds the opencode credentials, so anything that can call it can
 * drive the agent: a page on another origin (CSRF), a page on another port of the same address
 * (cookies ignore ports), a DNS-rebound name, another user of the machine, or whatever process
 * takes the port after Retake stopped. Hence:
 * - on loopback each instance has an origin of its own, `http://<128 random bits>.localhost:<port>`
 *   (Chromium and Firefox resolve `*.localhost` to loopback themselves). Its cookie is scoped to
 *   that name, so no other port or name of 127.0.0.1 ever receives it, and no page can name it
 *   without having been told it;
 * - the printed URL's token is exchanged for a session value of this instance (random, kept only
 *   in this process): the cookie is never the token, and a cookie of a stopped instance is worthless
 *   to any later process on its port;
 * - the Host header must be that name; API calls must be the app's own (fetch metadata, Origin).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { fetchMetadataOf, foreignFetchReason } from '../core/security/fetch-metadata'

/** The session cookie's name (per port: two instances on one IP address keep their own logins). */
export function sessionCookieName(port: number): string {
  return `retake_session_${port}`
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a)
  const bb = Buffer.from(b)
  return ab.length === bb.length && timingSafeEqual(ab, bb)
}

export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) return v.join('=')
  }
  return null
}

/** A host name no other instance or process has been told: `<32 hex digits>.localhost`. */
export function instanceHostName(random: () => Buffer = () => randomBytes(16)): string {
  return `${random().toString('hex')}.localhost`
}

/**
 * Binds a browser reaches under a `.localhost` name: those that listen on 127.0.0.1 or ::1, where
 * browsers send `*.localhost` (wildcards listen there too). Another 127.x address is not among them.
 */
export function isLoopbackBind(bindHost: string): boolean {
  const h = bindHost.replace(/^\[|\]$/g, '').toLowerCase()
  return ['localhost', '127.0.0.1', '::1', '::', '0.0.0.0'].includes(h)
}

export interface HostNames {
  /** The only `host:port` the app and its API answer on. */
  canonical: string
  /** Other names of the same socket: they only pass a valid token on to the canonical origin. */
  aliases: Set<string>
}

/**
 * On loopback the instance's own `.localhost` name; on another address (`--host`), that address:
 * an IP literal cannot have a name of its own, so there every port of it shares the cookie.
 */
export function hostNames(bindHost: string, port: number, instanceName: string): HostNames {
  const bracket = (h: string) => (h.includes(':') && !h.startsWith('[') ? `[${h}]` : h)
  if (!isLoopbackBind(bindHost)) return { canonical: `${bracket(bindHost)}:${port}`, aliases: new Set() }
  const aliases = new Set(['127.0.0.1', 'localhost', '[::1]', bracket(bindHost)].map((n) => `${n}:${port}`))
  return { canonical: `${instanceName}:${port}`, aliases }
}

/** Session values this instance issued (kept hashed: a lookup compares no secret byte by byte). */
export class SessionStore {
  private readonly issued = new Set<string>()
  constructor(private readonly max = 1_000) {}

  issue(): string {
    const value = randomBytes(32).toString('base64url')
    // Only token holders make sessions; the cap bounds memory, dropping the oldest first.
    if (this.issued.size >= this.max) this.issued.delete(this.issued.values().next().value!)
    this.issued.add(digest(value))
    return value
  }

  has(value: string | null): boolean {
    return value !== null && this.issued.has(digest(value))
  }
}

const digest = (v: string) => createHash('sha256').update(v).digest('hex')

export interface GuardDecision {
  ok: boolean
  status?: number
  reason?: string
}

export function checkRequest(
  req: { method?: string; headers: IncomingHttpHeaders },
  opts: { names: HostNames; sessions: SessionStore; cookieName: string; needsSession: boolean; api: boolean },
): GuardDecision {
  if ((req.headers.host ?? '') !== opts.names.canonical) return { ok: false, status: 421, reason: 'unexpected Host header: open the URL Retake printed' }
  const method = (req.method ?? 'GET').toUpperCase()
  const origin = req.headers.origin
  if (method !== 'GET' && method !== 'HEAD' && origin !== undefined && originHost(origin) !== opts.names.canonical) {
    return { ok: false, status: 403, reason: 'cross-origin request refused' }
  }
  if (opts.api) {
    const foreign = foreignFetchReason(fetchMetadataOf(req.headers), { checkSite: true })
    if (foreign) return { ok: false, status: 403, reason: foreign }
  }
  if (opts.needsSession && !opts.sessions.has(readCookie(req.headers.cookie, opts.cookieName))) {
    return { ok: false, status: 401, reason: 'open the URL Retake printed (it carries the access token)' }
  }
  return { ok: true }
}

function originHost(origin: string): string {
  try {
    return new URL(origin).host
  } catch {
    return ''
  }
}

export function sessionCookie(name: string, value: string): string {
  return `${name}=${value}; HttpOnly; SameSite=Strict; Path=/`
}
