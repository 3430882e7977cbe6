/**
 * The handler behind the desktop app's `app://retake/` scheme, written against the web Request and
 * Response types (what Electron's protocol.handle speaks) so it runs and is tested in plain Node:
 * `/opencode/*` goes through the credentialed proxy, everything else is a renderer file with the CSP.
 * Only the renderer's own calls reach the proxy: an image, media, frame or navigation request for
 * an `/opencode` address (a model's answer can hold one) is refused before anything is forwarded.
 */
import { createReadStream, statSync } from 'node:fs'
import { Readable } from 'node:stream'
import { OPENCODE_PROXY_PATH } from '../../shared/ipc-contract'
import type { RetakeCore } from '../../core/retake-core'
import { SECURITY_HEADERS } from '../../core/security/csp'
import { fetchMetadataOf, foreignFetchReason } from '../../core/security/fetch-metadata'
import { contentTypeFor, resolveStaticPath } from '../../core/security/static-path'
import { APP_HOST } from '../security/window-policy'

export function createAppProtocolHandler(core: Pick<RetakeCore, 'proxy'>, staticDir: string) {
  return async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url)
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 })
    if (url.pathname === OPENCODE_PROXY_PATH || url.pathname.startsWith(`${OPENCODE_PROXY_PATH}/`)) {
      // The window is app://retake alone, so the site is always its own: the destination tells.
      const foreign = foreignFetchReason(fetchMetadataOf(request.headers), { checkSite: false })
      if (foreign) return Response.json({ name: 'Forbidden', data: { message: foreign } }, { status: 403, headers: { 'x-content-type-options': 'nosniff' } })
      const headers: Record<string, string> = {}
      request.headers.forEach((v, k) => (headers[k] = v))
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body
      const out = await core.proxy({
        method: request.method,
        path: url.pathname.slice(OPENCODE_PROXY_PATH.length) + url.search || '/',
        headers,
        body: hasBody ? Readable.fromWeb(request.body as import('node:stream/web').ReadableStream) : null,
        signal: request.signal,
      })
      const body = out.body ? (Readable.toWeb(out.body) as unknown as ReadableStream) : null
      return new Response(out.status === 204 || out.status === 304 ? null : body, { status: out.status, headers: out.headers })
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405 })
    const file = resolveStaticPath(staticDir, url.pathname)
    if (!file) return new Response('Bad path', { status: 400 })
    let size: number
    try {
      const st = statSync(file)
      if (!st.isFile()) throw new Error('not a file')
      size = st.size
    } catch {
      return new Response('Not found', { status: 404 })
    }
    const stream = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream
    return new Response(stream, {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'content-type': contentTypeFor(file), 'content-length': String(size) },
    })
  }
}
