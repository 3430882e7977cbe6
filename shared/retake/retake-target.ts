/**
 * Which user turn a ↺ retakes, and what it will discard: pure, so the chat panel and tests agree.
 * ↺ on a user message retakes it; on an assistant message (or its error block) it retakes the user
 * message the answer belongs to (parentID).
 */
export interface TimelineMessage {
  info: { id: string; role: string; parentID?: string }
}

export function retakeTargetFor(messages: readonly TimelineMessage[], messageID: string): string | null {
  const m = messages.find((x) => x.info.id === messageID)
  if (!m) return null
  if (m.info.role === 'user') return m.info.id
  const parent = m.info.parentID
  return parent && messages.some((x) => x.info.id === parent && x.info.role === 'user') ? parent : null
}

/**
 * What every entry point (↺, R, Retake with…, the error block's retake) does first, so none of them
 * can skip the files: a turn that changed files opens the restore sheet; otherwise an earlier turn
 * asks about the later turns it discards; otherwise the retake starts at once.
 */
export type RetakeEntry = 'sheet' | 'confirm' | 'now'
export function retakeEntry(changedFiles: boolean, laterTurnCount: number): RetakeEntry {
  if (changedFiles) return 'sheet'
  return laterTurnCount > 0 ? 'confirm' : 'now'
}

/** The user turns after the target that a retake will discard (list order, not id order). */
export function laterTurns(messages: readonly TimelineMessage[], userMessageID: string): number {
  const i = messages.findIndex((x) => x.info.id === userMessageID)
  if (i < 0) return 0
  return messages.slice(i + 1).filter((x) => x.info.role === 'user').length
}

/** The answers a retake replaces: assistant messages that reply to the target. */
export function answersTo<T extends TimelineMessage>(messages: readonly T[], userMessageID: string): T[] {
  return messages.filter((x) => x.info.role === 'assistant' && x.info.parentID === userMessageID)
}
