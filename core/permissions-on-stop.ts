/**
 * Stop means stop. Opencode's abort ends a turn but leaves the permission requests it was waiting
 * on pending: an "Allow once" answered afterwards (a card still on screen, another tab) still runs
 * the tool — a file written by a turn the user stopped. So on its way to opencode, every abort is
 * preceded (and followed, for a request asked meanwhile) by the host's own "reject" to each
 * request of that session and of the sessions it started (subagents), whatever sent the abort
 * (Stop, Esc, the palette, another tab).
 */
import { Readable } from 'node:stream'
import type { ProxyRequest, ProxyResponse } from './server/opencode-proxy'
import { directoryOf } from './prompt-intercept'

const ABORT_PATH = /^\/session\/(ses[A-Za-z0-9_]+)\/abort(?:\?|$)/

export interface AbortRequestInfo {
  sessionID: string
  directory: string | null
}

/** A `POST /session/:id/abort` on its way through the proxy, with the folder it is for. */
export function matchAbortRequest(method: string, path: string, headers: Record<string, string | string[] | undefined>): AbortRequestInfo | null {
  if (method.toUpperCase() !== 'POST') return null
  const m = ABORT_PATH.exec(path)
  return m ? { sessionID: m[1]!, directory: directoryOf(path, headers) } : null
}

export interface PendingPermission {
  id: string
  sessionID: string
}

/** The session and every session it started, down any depth (sessions list their parent). */
export function sessionAndDescendants(root: string, sessions: { id: string; parentID?: string }[]): Set<string> {
  const out = new Set([root])
  for (let grew = true; grew;) {
    grew = false
    for (const s of sessions) {
      if (s.parentID && out.has(s.parentID) && !out.has(s.id)) {
        out.add(s.id)
        grew = true
      }
    }
  }
  return out
}

/** The requests the stop answers: those of the stopped session and of the sessions it started. */
export function requestsToDeny(pending: PendingPermission[], stopped: Set<string>): string[] {
  return pending.filter((p) => stopped.has(p.sessionID)).map((p) => p.id)
}

async function json(res: ProxyResponse): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const c of res.body ?? []) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string))
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    return null
  }
}

/**
 * Rejects what the stopped turn waits on. A request is rejected without a message: opencode takes
 * a message as the user's correction and goes on with the turn.
 */
export async function denyPending(send: (req: ProxyRequest) => Promise<ProxyResponse>, abort: AbortRequestInfo, log: (l: string) => void): Promise<void> {
  const q = abort.directory ? `?directory=${encodeURIComponent(abort.directory)}` : ''
  const get = async (path: string) => json(await send({ method: 'GET', path: `${path}${q}`, headers: {}, fromHost: true }))
  const pending = await get('/permission')
  if (!Array.isArray(pending) || pending.length === 0) return
  const list = pending as PendingPermission[]
  const others = list.some((p) => p.sessionID !== abort.sessionID)
  const sessions = others ? await get('/session') : []
  const stopped = sessionAndDescendants(abort.sessionID, Array.isArray(sessions) ? (sessions as { id: string; parentID?: string }[]) : [])
  for (const id of requestsToDeny(list, stopped)) {
    const body = Buffer.from(JSON.stringify({ reply: 'reject' }))
    const res = await send({
      method: 'POST',
      path: `/permission/${encodeURIComponent(id)}/reply${q}`,
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      body: Readable.from([body]),
      fromHost: true,
    })
    res.body?.resume()
    if (res.status !== 200) log(`[permissions] rejecting ${id} at the stop of ${abort.sessionID}: HTTP ${res.status}`)
  }
}
