/**
 * The renderer's only way to the opencode server: the host forwards `/opencode/*` and adds the
 * credentials itself, so the password never reaches the renderer and no CORS exception is needed.
 * Bodies are streamed both ways (prompts with attachments up, the SSE event stream down) with no
 * timeouts: a long turn or an idle event stream must not be cut by the proxy.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Readable } from 'node:stream'
import { isAllowedOpencodeRoute } from '../../shared/opencode-routes'
import type { OpencodeConnection } from './connection'
import { realTimers, relayEvents } from './event-relay'

export interface ProxyRequest {
  method: string
  /** Path and query below the proxy mount, e.g. `/session?directory=…`. */
  path: string
  headers: IncomingHttpHeaders | Record<string, string | undefined>
  body?: Readable | null
  /** Aborted when the client goes away, so upstream requests (and event streams) are closed too. */
  signal?: AbortSignal
}

export interface ProxyResponse {
  status: number
  headers: Record<string, string>
  body: Readable | null
}

/** Request headers the renderer may pass on; everything else (cookies, auth, origin) stays behind. */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'content-length', 'accept', 'last-event-id', 'x-opencode-directory', 'x-opencode-workspace']
/** Response headers the renderer may see; www-authenticate is dropped so no browser login prompt can appear. */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'content-length', 'cache-control', 'content-encoding', 'etag', 'last-modified', 'x-next-cursor']

export function upstreamHeaders(incoming: ProxyRequest['headers'], authorization: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const v = incoming[name]
    if (typeof v === 'string') out[name] = v
  }
  out.authorization = authorization
  return out
}

/** The only content types opencode's answers are read as: data for the renderer's code. */
const DATA_TYPES = /^(application\/json|text\/event-stream)\s*(;|$)/i

/**
 * Opencode's answers are data, never a page of Retake: whatever is not JSON or an event stream
 * (HTML, SVG, XML an agent wrote, plain text) is served as a download, sandboxed, typed as bytes,
 * so a link to it can never run script on Retake's origin. Nothing is sniffed.
 */
export function downstreamHeaders(upstream: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const v = upstream[name]
    if (typeof v === 'string') out[name] = v
  }
  out['x-content-type-options'] = 'nosniff'
  if (!DATA_TYPES.test(out['content-type'] ?? '')) {
    out['content-type'] = 'application/octet-stream'
    out['content-disposition'] = 'attachment'
    out['content-security-policy'] = "sandbox; default-src 'none'"
  }
  return out
}

/** Resolves the target URL, refusing anything that would leave the server's origin (`//host`, schemes). */
export function upstreamUrl(base: string, path: string): URL | null {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return null
  const baseUrl = new URL(base)
  const url = new URL(path, baseUrl)
  return url.origin === baseUrl.origin ? url : null
}

function jsonError(status: number, name: string, message: string): ProxyResponse {
  const body = JSON.stringify({ name, data: { message } })
  return { status, headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' }, body: Readable.from([Buffer.from(body)]) }
}

export async function proxyToOpencode(conn: OpencodeConnection, req: ProxyRequest, timers = realTimers): Promise<ProxyResponse> {
  const res = await forward(conn, req)
  if (req.method !== 'GET' || !/^\/event(\?|$)/.test(req.path) || res.status !== 200 || !res.body) return res
  // The event stream is kept alive from here (event-relay.ts): a silent subscription is renewed.
  const reopen = async () => {
    const again = await forward(conn, { ...req, body: null })
    if (again.status === 200 && again.body) return again.body
    again.body?.destroy()
    return null
  }
  const body = relayEvents(res.body, { reopen, ...timers })
  req.signal?.addEventListener('abort', () => body.destroy(), { once: true })
  return { ...res, body }
}

function forward(conn: OpencodeConnection, req: ProxyRequest): Promise<ProxyResponse> {
  if (conn.status.state !== 'ready' || !conn.url) {
    return Promise.resolve(jsonError(503, 'ServerUnavailable', `The opencode server is ${conn.status.state}${conn.status.error ? `: ${conn.status.error}` : ''}`))
  }
  const url = upstreamUrl(conn.url, req.path)
  if (!url) return Promise.resolve(jsonError(400, 'BadRequest', 'Invalid opencode path'))
  if (!isAllowedOpencodeRoute(req.method, url.pathname)) {
    return Promise.resolve(jsonError(403, 'Forbidden', `Retake does not forward ${req.method} ${url.pathname} to opencode`))
  }
  return new Promise((resolve) => {
    const upstream = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: req.method,
      headers: upstreamHeaders(req.headers, conn.authorization()),
    })
    const onAbort = () => upstream.destroy()
    req.signal?.addEventListener('abort', onAbort, { once: true })
    upstream.on('response', (res) => {
      res.on('close', () => req.signal?.removeEventListener('abort', onAbort))
      resolve({ status: res.statusCode ?? 502, headers: downstreamHeaders(res.headers), body: res })
    })
    upstream.on('error', (err) => {
      req.signal?.removeEventListener('abort', onAbort)
      resolve(jsonError(502, 'ServerUnreachable', `The opencode server did not answer: ${err.message}`))
    })
    if (req.body) req.body.pipe(upstream)
    else upstream.end()
  })
}
