/**
 * Browser mode's host: serves the built renderer, the bridge over HTTP (`/api/rpc/<channel>`,
 * `/api/events`) and the opencode proxy (`/opencode/*`), all behind the guard of host-auth.ts.
 */
import { createReadStream, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { OPENCODE_PROXY_PATH } from '../shared/ipc-contract'
import type { RetakeCore } from '../core/retake-core'
import { SECURITY_HEADERS } from '../core/security/csp'
import { contentTypeFor, resolveStaticPath } from '../core/security/static-path'
import { REFUSAL_CSP, REFUSAL_TEXT, refusalPage } from './refusal-page'
import { checkRequest, hostNames, instanceHostName, safeEqual, SessionStore, sessionCookie, sessionCookieName, type HostNames } from './host-auth'

export interface WebHostOptions {
  core: RetakeCore
  staticDir: string
  port?: number
  host?: string
  /** Fixed access token (tests); random by default. */
  token?: string
}

export interface WebHost {
  /** The URL to open, with the access token. */
  url: string
  /** This instance's own origin: `http://<random>.localhost:<port>` on loopback, else the address. */
  origin: string
  close(): Promise<void>
}

const MAX_RPC_BODY = 64 * 1024 * 1024

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const bindHost = opts.host ?? '127.0.0.1'
  const secret = opts.token ?? randomBytes(24).toString('base64url')
  const sessions = new SessionStore()
  const sseClients = new Set<ServerResponse>()
  let names: HostNames = { canonical: '', aliases: new Set() }
  let origin = ''
  let cookieName = ''

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) send(res, 500, { ok: false, error: { code: 'internal', message: String((err as Error).message) } })
      else res.destroy()
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin)
    const path = url.pathname
    const isApi = path.startsWith('/api/') || path === OPENCODE_PROXY_PATH || path.startsWith(`${OPENCODE_PROXY_PATH}/`)
    const token = url.searchParams.get('token')
    const exchange = req.method === 'GET' && token !== null && !isApi
    // 127.0.0.1 and the like are shared by every port and every process: there only a valid
    // token is answered, by sending it on to this instance's own origin (unnamed to anyone else).
    if (names.aliases.has(req.headers.host ?? '')) {
      if (!exchange || !safeEqual(token, secret)) return refuse(res, isApi, 421, 'This Retake host answers only at the address it printed: open that URL.', REFUSAL_TEXT.alias)
      res.writeHead(303, { location: sameOriginLocation(origin, url), 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
      return res.end()
    }
    // The token in the printed URL buys a session of this instance, then leaves the address bar.
    if (exchange) {
      const guard = checkRequest(req, { names, sessions, cookieName, needsSession: false, api: false })
      if (!guard.ok) return sendPage(res, guard.status!, pageTextFor(guard.status!, guard.reason!))
      if (!safeEqual(token, secret)) return sendPage(res, 401, REFUSAL_TEXT.badToken)
      url.searchParams.delete('token')
      res.writeHead(303, { location: sameOriginLocation(origin, url), 'set-cookie': sessionCookie(cookieName, sessions.issue()), 'cache-control': 'no-store' })
      return res.end()
    }
    const guard = checkRequest(req, { names, sessions, cookieName, api: isApi, needsSession: isApi || path.endsWith('.html') || !/\.[a-z0-9]+$/i.test(path) })
    if (!guard.ok) return refuse(res, isApi, guard.status!, guard.reason!, pageTextFor(guard.status!, guard.reason!))

    if (path.startsWith('/api/rpc/')) return rpc(req, res, decodeURIComponent(path.slice('/api/rpc/'.length)))
    if (path === '/api/events') return events(req, res)
    if (isApi && path.startsWith(OPENCODE_PROXY_PATH)) return proxy(req, res, path.slice(OPENCODE_PROXY_PATH.length) + url.search)
    return serveStatic(req, res, path)
  }

  async function rpc(req: IncomingMessage, res: ServerResponse, channel: string) {
    // A custom header forces a CORS preflight for any cross-origin caller, which this host never answers.
    if (req.method !== 'POST' || req.headers['x-retake-rpc'] !== '1') return send(res, 405, { ok: false, error: { code: 'bad-input', message: 'POST with x-retake-rpc' } })
    let body: unknown
    try {
      body = JSON.parse((await readBody(req, MAX_RPC_BODY)) || '{}')
    } catch (err) {
      return send(res, 400, { ok: false, error: { code: 'bad-input', message: `Invalid JSON body: ${(err as Error).message}` } })
    }
    const envelope = await opts.core.dispatch(channel, body, req)
    send(res, 200, envelope)
  }

  function events(req: IncomingMessage, res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
    const push = (event: string, payload: unknown) => res.write(`data: ${JSON.stringify({ event, payload })}\n\n`)
    push('server.status', opts.core.connection.status)
    const off = opts.core.onAnyEvent(push)
    // A dead connection (sleep, a proxy dropping idle streams) shows within seconds, not minutes.
    const beat = setInterval(() => res.write(': heartbeat\n\n'), 5_000)
    sseClients.add(res)
    req.on('close', () => {
      off()
      clearInterval(beat)
      sseClients.delete(res)
    })
  }

  async function proxy(req: IncomingMessage, res: ServerResponse, upstreamPath: string) {
    const abort = new AbortController()
    res.on('close', () => abort.abort())
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
    const out = await opts.core.proxy({ method: req.method ?? 'GET', path: upstreamPath || '/', headers: req.headers, body: hasBody ? req : null, signal: abort.signal })
    res.writeHead(out.status, { ...out.headers, 'cache-control': out.headers['cache-control'] ?? 'no-store' })
    if (out.headers['content-type']?.startsWith('text/event-stream')) res.flushHeaders()
    if (out.body) out.body.pipe(res)
    else res.end()
  }

  function serveStatic(req: IncomingMessage, res: ServerResponse, path: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed')
    let file = resolveStaticPath(opts.staticDir, path)
    if (!file) return sendText(res, 400, 'Bad path')
    let stat = statOrNull(file)
    // Client-side routes fall back to the app shell; a missing asset is a real 404.
    if (!stat && !/\.[a-z0-9]+$/i.test(path)) {
      file = resolveStaticPath(opts.staticDir, '/index.html')!
      stat = statOrNull(file)
    }
    if (!stat || !stat.isFile()) return sendText(res, 404, stat ? 'Not found' : `Not found${path === '/' ? ' — build the renderer first (npm run build:renderer)' : ''}`)
    const isHtml = file.endsWith('.html')
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': contentTypeFor(file),
      'content-length': String(stat.size),
      'cache-control': isHtml ? 'no-store' : 'public, max-age=3600',
    })
    if (req.method === 'HEAD') return res.end()
    createReadStream(file).pipe(res)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, bindHost, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  names = hostNames(bindHost, port, instanceHostName())
  cookieName = sessionCookieName(port)
  origin = `http://${names.canonical}`

  return {
    url: `${origin}/?token=${secret}`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of sseClients) c.end()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function statOrNull(file: string) {
  try {
    return statSync(file)
  } catch {
    return null
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
  res.end(text)
}

/**
 * Where the token exchange sends the browser: always an absolute URL on this host. A path such as
 * `/.//evil.example` normalises to `//evil.example`, which as a relative Location would be another
 * host (an open redirect); leading slashes are folded to one.
 */
export function sameOriginLocation(origin: string, url: URL): string {
  return `${origin}/${url.pathname.replace(/^[/\\]+/, '')}${url.search}`
}

/** A refusal: the reason as JSON for the app's own calls, a page with a sentence for a person otherwise. */
function refuse(res: ServerResponse, api: boolean, status: number, reason: string, sentence: string) {
  return api ? send(res, status, { ok: false, error: { code: 'forbidden', message: reason } }) : sendPage(res, status, sentence)
}

/** The sentence for a guard's refusal (host-auth.ts): a wrong Host is mostly a tab of an ended run. */
function pageTextFor(status: number, reason: string): string {
  if (status === 421) return REFUSAL_TEXT.otherRun
  if (status === 401) return REFUSAL_TEXT.noSession
  return `Retake refused this request: ${reason}.`
}

function sendPage(res: ServerResponse, status: number, sentence: string) {
  const html = refusalPage(sentence, status)
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(html)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'content-security-policy': REFUSAL_CSP,
  })
  res.end(html)
}

function sendText(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'content-security-policy': "sandbox; default-src 'none'" })
  res.end(text)
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > limit) {
        reject(new Error(`body over ${limit} bytes`))
        req.destroy()
      } else chunks.push(c)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}
