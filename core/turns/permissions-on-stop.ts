/**
 * Stop means stop. Opencode's abort ends a turn but leaves the permission requests it was waiting
 * on pending: an "Allow once" answered afterwards (a card still on screen, another tab) still runs
 * the tool — a file written by a turn the user stopped. So on its way to opencode, every abort is
 * preceded (and followed, for a request asked meanwhile) by the host's own "reject" to each
 * request of that session and of the sessions it started (subagents), whatever sent the abort
 * (Stop, Esc, the palette, another tab).
 */
import type { OpencodeClient } from '@opencode-ai/sdk/v2/client'
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

/**
 * Rejects what the stopped turn waits on. A request is rejected without a message: opencode takes
 * a message as the user's correction and goes on with the turn.
 */
export async function denyPending(client: OpencodeClient, sessionID: string, log: (l: string) => void): Promise<void> {
  const pending = (await client.permission.list()).data
  if (!Array.isArray(pending) || pending.length === 0) return
  const list = pending as PendingPermission[]
  const others = list.some((p) => p.sessionID !== sessionID)
  const sessions = others ? ((await client.session.list()).data ?? []) : []
  const stopped = sessionAndDescendants(sessionID, sessions as { id: string; parentID?: string }[])
  for (const id of requestsToDeny(list, stopped)) {
    const res = await client.permission.reply({ requestID: id, reply: 'reject' })
    if (res.response?.status !== 200) log(`[permissions] rejecting ${id} at the stop of ${sessionID}: HTTP ${res.response?.status ?? 'no answer'}`)
  }
}
