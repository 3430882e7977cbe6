/**
 * One opencode client per project directory. Every request goes to the host's `/opencode` proxy on
 * the renderer's own origin (the proxy adds the server's credentials; the renderer never sees them).
 */
import type { OpencodeClient } from '@opencode-ai/sdk/v2/client'
import { opencodeBaseUrl } from '../bridge'
import { OPENCODE_PROXY_PATH } from '../../shared/opencode-proxy-path'
import { isAllowedOpencodeRoute } from '../../shared/opencode-routes'

const clients = new Map<string, OpencodeClient>()

export type { OpencodeClient }

// The SDK (58 kB, a quarter of the first load) is its own chunk, asked for as soon as this module
// runs: the first call to opencode comes after the host's own calls, by when it has arrived.
const sdk = import('@opencode-ai/sdk/v2/client')
// A failed load fails each call (shown as that query's error); not an unhandled rejection here too.
sdk.catch(() => {})

/**
 * The client for a directory (cached: creating one per render would defeat connection reuse).
 * Every call is `client.<group>[.<group>].<method>(…)` and returns a promise, so the client can be handed
 * out before the SDK has loaded: this stand-in has the same shape, and each method waits for the
 * SDK's client and calls it.
 */
export function clientFor(directory: string): OpencodeClient {
  const base = opencodeBaseUrl()
  const key = `${base}\n${directory}`
  let client = clients.get(key)
  if (!client) {
    const real = sdk.then((m) => m.createOpencodeClient({ baseUrl: base, directory, fetch: routeCheckedFetch }))
    // A path of property names (`provider`, `oauth`, `authorize`) ends in a method: calling the
    // stand-in walks the same path on the real client and calls it on its parent (SDK methods use
    // `this`). Nested groups (`provider.oauth`) need the path to go deeper than two levels.
    const node = (path: PropertyKey[]): unknown =>
      new Proxy(
        async (...args: unknown[]) => {
          let parent: Record<PropertyKey, unknown> = (await real) as unknown as Record<PropertyKey, unknown>
          for (const k of path.slice(0, -1)) parent = parent[k] as Record<PropertyKey, unknown>
          return (parent[path[path.length - 1]!] as (...a: unknown[]) => unknown).apply(parent, args)
        },
        // No `then` at any level: neither the client nor a group may look like a promise.
        { get: (_, k) => (k === 'then' ? undefined : node([...path, k])) },
      )
    client = new Proxy({}, { get: (_, name) => (name === 'then' ? undefined : node([name])) }) as OpencodeClient
    clients.set(key, client)
  }
  return client
}

/** The URL of the directory's event stream, same origin so CSP `connect-src 'self'` allows it. */
export function eventStreamUrl(directory: string): string {
  return `${opencodeBaseUrl()}/event?directory=${encodeURIComponent(directory)}`
}

/**
 * The proxy forwards only the routes in shared/opencode-routes.ts; a call outside them fails
 * here, by name, before it leaves the page (global fetch is looked up per call: tests replace it).
 */
function routeCheckedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const req = new Request(input, init)
  const path = new URL(req.url).pathname
  const below = path.startsWith(OPENCODE_PROXY_PATH) ? path.slice(OPENCODE_PROXY_PATH.length) : path
  if (!isAllowedOpencodeRoute(req.method, below)) {
    return Promise.reject(new Error(`${req.method} ${below} is not an opencode route Retake forwards (shared/opencode-routes.ts)`))
  }
  return fetch(req)
}
