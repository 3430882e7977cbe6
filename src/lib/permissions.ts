/**
 * opencode asks before a tool runs when the user's config says "ask" (permission.asked); the turn
 * waits until it is answered. The pending requests are kept in the query cache, patched by events.
 */
import type { OpencodeEvent } from '../api/types'

export interface PermissionRequest {
  id: string
  sessionID: string
  permission: string
  patterns: string[]
  metadata: Record<string, unknown>
  always: string[]
  tool?: { messageID: string; callID: string }
}

export function applyToPermissions(list: PermissionRequest[] | undefined, event: OpencodeEvent): PermissionRequest[] | undefined {
  if (!list) return list
  if (event.type === 'permission.asked') {
    const p = event.properties as PermissionRequest
    return [...list.filter((x) => x.id !== p.id), p]
  }
  if (event.type === 'permission.replied') {
    const { requestID } = event.properties as { requestID: string }
    const next = list.filter((x) => x.id !== requestID)
    return next.length === list.length ? list : next
  }
  return list
}

/** What the agent wants to do, in words: "run bash: rm -rf build", "edit src/a.ts". */
export function describePermission(p: PermissionRequest): string {
  const target = p.patterns.filter((x) => x && x !== '*').join(', ')
  const command = typeof p.metadata.command === 'string' ? p.metadata.command : undefined
  const what = command ?? target
  return what ? `${p.permission}: ${what}` : p.permission
}
