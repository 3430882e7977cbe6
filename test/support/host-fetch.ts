/**
 * Talking to browser mode's host from Node as a browser does: its origin is
 * `http://<random>.localhost:<port>`, which Chromium resolves to loopback itself but Node's
 * resolver does not. `hostFetch` is a `fetch` (redirects never followed) that reaches
 * `*.localhost` names on 127.0.0.1 and sends the name as the Host header; `logIn` exchanges a
 * printed URL's token for the session cookie, as the browser does.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import { Readable } from 'node:stream'

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

function localhostLookup(hostname: string, options: { all?: boolean }, cb: LookupCallback): void {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all) cb(null, [{ address: '127.0.0.1', family: 4 }])
    else cb(null, '127.0.0.1', 4)
    return
  }
  dnsLookup(hostname, options as never, cb as never)
}

export async function hostFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init)
  const headers: Record<string, string> = {}
  request.headers.forEach((v, k) => (headers[k] = v))
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : null
  return new Promise<Response>((resolve, reject) => {
    const req = http.request(request.url, { method: request.method, headers, lookup: localhostLookup as never, signal: request.signal, agent: false }, (res) => {
      const out = new Headers()
      for (let i = 0; i < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!)
      // As fetch does: aborting ends the body too (a reader waiting on an event stream gets an error).
      const abort = () => res.destroy(new DOMException('This operation was aborted', 'AbortError'))
      if (request.signal.aborted) abort()
      else request.signal.addEventListener('abort', abort, { once: true })
      const empty = res.statusCode === 204 || res.statusCode === 304 || request.method === 'HEAD'
      if (empty) res.resume()
      resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream), { status: res.statusCode!, headers: out }))
    })
    req.on('error', reject)
    req.end(body ?? undefined)
  })
}

/** The session cookie (`name=value`) the printed URL's token buys. */
export async function logIn(printedUrl: string): Promise<string> {
  const res = await hostFetch(printedUrl)
  const setCookie = res.headers.get('set-cookie')
  if (res.status !== 303 || !setCookie) throw new Error(`logging in to ${new URL(printedUrl).origin} failed: HTTP ${res.status}`)
  return setCookie.split(';')[0]!
}
