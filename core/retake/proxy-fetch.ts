/**
 * A `fetch` that goes through the host's own checkpointing proxy, for the opencode SDK client the
 * host's retake uses: its prompt is checkpointed, route-checked and authenticated exactly like one
 * from the window, because it takes the very same path.
 */
import { Readable } from 'node:stream'
import type { ProxyRequest, ProxyResponse } from '../server/opencode-proxy'

/** The origin the SDK is pointed at; only its path and query are used. */
export const PROXY_BASE = 'http://retake.host/opencode'

export function proxyFetch(proxy: (req: ProxyRequest) => Promise<ProxyResponse>): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const path = url.pathname.slice(new URL(PROXY_BASE).pathname.length) + url.search
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : null
    const res = await proxy({ method: request.method, path, headers, body: body ? Readable.from([body]) : null, signal: request.signal, fromHost: true })
    const bytes = res.body ? await readAll(res.body) : null
    // 204/304 must not carry a body in a Response.
    return new Response(res.status === 204 || res.status === 304 || !bytes ? null : new Uint8Array(bytes), { status: res.status, headers: res.headers })
  }
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string))
  return Buffer.concat(chunks)
}
