/**
 * Browser mode's guard. The host holds the opencode credentials, so anything that can call it can
 * drive the agent: a page on another origin (CSRF), a DNS-rebound name, or another user of the
 * machine. Hence: a secret token in the printed URL, exchanged for an HttpOnly SameSite=Strict cookie;
 * the Host header must name this host; state-changing requests must come from this origin.
 */
import { timingSafeEqual } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

/**
 * The session cookie's name, one per host port: cookies are shared by every port of 127.0.0.1, so
 * two browser-mode instances with one name would overwrite each other's login.
 */
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

/** Host names this host answers to (anything else is a rebinding attempt or a mistake). */
export function allowedHosts(bindHost: string, port: number): Set<string> {
  const names = new Set([bindHost, '127.0.0.1', 'localhost', '[::1]'])
  return new Set([...names].map((n) => `${n}:${port}`))
}

export interface GuardDecision {
  ok: boolean
  status?: number
  reason?: string
}

export function checkRequest(
  req: { method?: string; headers: IncomingHttpHeaders },
  opts: { secret: string; hosts: Set<string>; origin: string; needsSession: boolean; cookieName: string },
): GuardDecision {
  const host = req.headers.host ?? ''
  if (!opts.hosts.has(host)) return { ok: false, status: 421, reason: 'unexpected Host header' }
  const method = (req.method ?? 'GET').toUpperCase()
  const origin = req.headers.origin
  if (method !== 'GET' && method !== 'HEAD' && origin !== undefined && !opts.hosts.has(originHost(origin))) {
    return { ok: false, status: 403, reason: 'cross-origin request refused' }
  }
  if (opts.needsSession) {
    const cookie = readCookie(req.headers.cookie, opts.cookieName)
    if (!cookie || !safeEqual(cookie, opts.secret)) return { ok: false, status: 401, reason: 'open the URL Retake printed (it carries the access token)' }
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

export function sessionCookie(name: string, secret: string): string {
  return `${name}=${secret}; HttpOnly; SameSite=Strict; Path=/`
}
