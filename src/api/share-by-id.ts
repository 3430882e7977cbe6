/**
 * Structural sharing for a session's message list, message by message: each new message is compared
 * with the cached message of the same id, not with whatever sat at its index. React Query's default
 * compares index with index, so putting an older page in front of 2,000 messages shifted every
 * index and deep-compared every message with its neighbour (tens of ms, for nothing). Unchanged
 * messages keep their identity either way, so rows that did not change are not rendered again.
 */
import { replaceEqualDeep } from '@tanstack/react-query'
import type { MessageWithParts } from './types'

export function shareMessagesById(prev: unknown, next: unknown): unknown {
  if (!Array.isArray(prev) || !Array.isArray(next)) return replaceEqualDeep(prev, next)
  const old = new Map((prev as MessageWithParts[]).map((m) => [m.info.id, m]))
  let same = prev.length === next.length
  const out = (next as MessageWithParts[]).map((m, i) => {
    const before = old.get(m.info.id)
    const kept = before === undefined || before === m ? m : replaceEqualDeep(before, m)
    if (kept !== prev[i]) same = false
    return kept
  })
  return same ? prev : out
}
