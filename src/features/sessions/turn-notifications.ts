/**
 * System notifications for turns that end while Retake is in the background (opt-in, Settings):
 * agent runs take minutes and people leave the window meanwhile. This module decides; the event
 * stream hook shows what it returns.
 */
import type { OpencodeEvent } from '../../api/types'
import { describeError } from '../../api/message-errors'

export interface TurnNotice {
  title: string
  body: string
  /** Also the notification's tag: a second notice for the same session replaces the first. */
  sessionID: string
}

export interface NoticeContext {
  /** The window is hidden or not focused. */
  away: boolean
  /** The session's current turn already failed (its failure was the notice). */
  failed(sessionID: string): boolean
  titleOf(sessionID: string): string | undefined
}

export function turnNotice(event: OpencodeEvent, ctx: NoticeContext): TurnNotice | null {
  if (!ctx.away) return null
  if (event.type === 'session.error') {
    const { sessionID, error } = event.properties
    // Stopped on purpose (Stop, or a ↺ that stops the running turn): no news for anyone.
    if (!sessionID || error?.name === 'MessageAbortedError') return null
    const why = error ? describeError(error).message : 'unknown error'
    return { title: 'Turn failed', body: `${label(ctx, sessionID)}: ${why}`, sessionID }
  }
  if (event.type === 'session.idle') {
    const { sessionID } = event.properties
    if (ctx.failed(sessionID)) return null
    return { title: 'Turn finished', body: label(ctx, sessionID), sessionID }
  }
  return null
}

function label(ctx: NoticeContext, sessionID: string): string {
  return ctx.titleOf(sessionID) || 'Untitled session'
}
