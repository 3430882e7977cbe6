/**
 * Requests that hold a turn until the user answers: permissions (opencode asks before a tool runs
 * when the user's config says "ask") and questions (the agent's `question` tool). The pending ones
 * are kept in the query cache and patched by events.
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

export interface QuestionRequest {
  id: string
  sessionID: string
  questions: { question: string; header: string; options: { label: string; description: string }[]; multiple?: boolean; custom?: boolean }[]
}

export function applyToQuestions(list: QuestionRequest[] | undefined, event: OpencodeEvent): QuestionRequest[] | undefined {
  if (!list) return list
  if (event.type === 'question.asked') {
    const q = event.properties as QuestionRequest
    return [...list.filter((x) => x.id !== q.id), q]
  }
  if (event.type === 'question.replied' || event.type === 'question.rejected') {
    const { requestID } = event.properties as { requestID: string }
    const next = list.filter((x) => x.id !== requestID)
    return next.length === list.length ? list : next
  }
  return list
}

/** One answer per question: the chosen labels, plus the user's own text where allowed. */
export function questionAnswers(q: QuestionRequest, chosen: Record<number, string[]>, custom: Record<number, string>): string[][] {
  return q.questions.map((_, i) => {
    const own = custom[i]?.trim()
    return [...(chosen[i] ?? []), ...(own ? [own] : [])]
  })
}
