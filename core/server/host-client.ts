/**
 * The host's one road to opencode: the v2 SDK client straight to the server, with the server's
 * credentials. The proxy (opencode-proxy.ts) is the window's road only — it checks routes and
 * folders and strips headers for a caller the host does not trust; the host's own calls (a
 * retake's steps, a seal's reads, a stop's permission replies) are made here, one HTTP hop each.
 */
import { createOpencodeClient, type OpencodeClient } from '@opencode-ai/sdk/v2/client'
import type { OpencodeConnection } from './connection'

function baseUrl(conn: OpencodeConnection): string {
  if (!conn.url) throw new Error('the opencode server is not running')
  return conn.url
}

/** An SDK client for one folder (null: calls that name none). Made per use: a restart moves the server. */
export function hostClient(conn: OpencodeConnection, directory: string | null): OpencodeClient {
  return createOpencodeClient({ baseUrl: baseUrl(conn), ...(directory ? { directory } : {}), headers: { authorization: conn.authorization() } })
}

/** A POST the SDK has no call for (opencode's sync and control-plane routes), as status and parsed JSON. */
export function hostPost(conn: OpencodeConnection, directory: string) {
  return async (path: string, body: unknown): Promise<{ status: number; json: unknown }> => {
    const url = new URL(path, baseUrl(conn))
    url.searchParams.set('directory', directory)
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: conn.authorization() },
      body: JSON.stringify(body),
    })
    const text = await r.text()
    let json: unknown = null
    try {
      json = text ? JSON.parse(text) : null
    } catch {
      json = text
    }
    return { status: r.status, json }
  }
}

/**
 * Whether opencode is running a turn of a session now (`GET /session/status`: busy or retrying),
 * or null when the server cannot be asked.
 */
export async function sessionBusy(conn: OpencodeConnection, directory: string, sessionID: string): Promise<boolean | null> {
  if (!conn.url) return null
  try {
    const r = await hostClient(conn, directory).session.status(undefined, { signal: AbortSignal.timeout(5000) })
    if (!r.response?.ok || !r.data) return null
    const type = (r.data as Record<string, { type?: string } | undefined>)[sessionID]?.type
    return type === 'busy' || type === 'retry'
  } catch {
    return null
  }
}

/** A session's stored messages (null: the server could not be asked). */
export async function sessionMessages(conn: OpencodeConnection, directory: string, sessionID: string): Promise<unknown[] | null> {
  if (!conn.url) return null
  try {
    const r = await hostClient(conn, directory).session.messages({ sessionID }, { signal: AbortSignal.timeout(15_000) })
    return r.response?.ok && Array.isArray(r.data) ? r.data : null
  } catch {
    return null
  }
}
