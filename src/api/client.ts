/**
 * One opencode client per project directory. Every request goes to the host's `/opencode` proxy on
 * the renderer's own origin (the proxy adds the server's credentials; the renderer never sees them).
 */
import { createOpencodeClient, type OpencodeClient } from '@opencode-ai/sdk/v2/client'
import { opencodeBaseUrl } from '../bridge'

const clients = new Map<string, OpencodeClient>()

export type { OpencodeClient }

/** The client for a directory (cached: creating one per render would defeat connection reuse). */
export function clientFor(directory: string): OpencodeClient {
  const base = opencodeBaseUrl()
  const key = `${base}\n${directory}`
  let client = clients.get(key)
  if (!client) {
    client = createOpencodeClient({ baseUrl: base, directory })
    clients.set(key, client)
  }
  return client
}

/** The URL of the directory's event stream, same origin so CSP `connect-src 'self'` allows it. */
export function eventStreamUrl(directory: string): string {
  return `${opencodeBaseUrl()}/event?directory=${encodeURIComponent(directory)}`
}
