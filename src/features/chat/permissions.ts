/**
 * Requests that hold a turn until the user answers: permissions (opencode asks before a tool runs
 * when the user's config says "ask") and questions (the agent's `question` tool). The pending ones
 * are kept in the query cache and patched by events.
 */
import type { OpencodeEvent } from '../../api/types'

export interface PermissionRequest {
  id: string
  sessionID: string
  permission: string
  patterns: string[]
  metadata: Record<string, unknown>
  always: string[]
  tool?: { messageID: string; callID: string }
}

/** Keeps a list of pending requests current: added when asked, removed when answered. */
function applyToPending<T extends { id: string }>(list: T[] | undefined, event: OpencodeEvent, asked: string, answered: readonly string[]): T[] | undefined {
  if (!list) return list
  if (event.type === asked) {
    const item = event.properties as unknown as T
    return [...list.filter((x) => x.id !== item.id), item]
  }
  if (answered.includes(event.type)) {
    const { requestID } = event.properties as { requestID: string }
    const next = list.filter((x) => x.id !== requestID)
    return next.length === list.length ? list : next
  }
  return list
}

export function applyToPermissions(list: PermissionRequest[] | undefined, event: OpencodeEvent): PermissionRequest[] | undefined {
  return applyToPending(list, event, 'permission.asked', ['permission.replied'])
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
  return applyToPending(list, event, 'question.asked', ['question.replied', 'question.rejected'])
}

/** One answer per question: the chosen labels, plus the user's own text where allowed. */
export function questionAnswers(q: QuestionRequest, chosen: Record<number, string[]>, custom: Record<number, string>): string[][] {
  return q.questions.map((_, i) => {
    const own = custom[i]?.trim()
    return [...(chosen[i] ?? []), ...(own ? [own] : [])]
  })
}
