/**
 * One opencode client per project directory. Every request goes to the host's `/opencode` proxy on
 * the renderer's own origin (the proxy adds the server's credentials; the renderer never sees them).
 */
import { createOpencodeClient, type OpencodeClient } from '@opencode-ai/sdk/v2/client'
import { opencodeBaseUrl } from '../bridge'
import { OPENCODE_PROXY_PATH } from '../shared/opencode-proxy-path'
import { isAllowedOpencodeRoute } from '../shared/opencode-routes'

const clients = new Map<string, OpencodeClient>()

export type { OpencodeClient }

/** The client for a directory (cached: creating one per render would defeat connection reuse). */
export function clientFor(directory: string): OpencodeClient {
  const base = opencodeBaseUrl()
  const key = `${base}\n${directory}`
  let client = clients.get(key)
  if (!client) {
    client = createOpencodeClient({ baseUrl: base, directory, fetch: routeCheckedFetch })
    clients.set(key, client)
  }
  return client
}

/** The URL of the directory's event stream, same origin so CSP `connect-src 'self'` allows it. */
export function eventStreamUrl(directory: string): string {
  return `${opencodeBaseUrl()}/event?directory=${encodeURIComponent(directory)}`
}

/**
 * The proxy forwards only the routes in src/shared/opencode-routes.ts; a call outside them fails
 * here, by name, before it leaves the page (global fetch is looked up per call: tests replace it).
 */
function routeCheckedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const req = new Request(input, init)
  const path = new URL(req.url).pathname
  const below = path.startsWith(OPENCODE_PROXY_PATH) ? path.slice(OPENCODE_PROXY_PATH.length) : path
  if (!isAllowedOpencodeRoute(req.method, below)) {
    return Promise.reject(new Error(`${req.method} ${below} is not an opencode route Retake forwards (src/shared/opencode-routes.ts)`))
  }
  return fetch(req)
}
