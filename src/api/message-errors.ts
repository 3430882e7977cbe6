/**
 * How errors are shown: once in the timeline (the failed assistant message carries `info.error`),
 * and in the session banner only when a `session.error` has no such message (e.g. an unknown model
 * fails before any assistant message exists).
 */
import { errorMessage } from '../../shared/unwrap'
import type { MessageError, MessageWithParts } from './types'

export interface ErrorDisplay {
  name: string
  message: string
  statusCode?: number
  /** Anything after the first line (server stack traces): shown folded. */
  details?: string
  /** Aborts are the user's own doing: shown quietly, not as a failure. */
  aborted: boolean
}

export function describeError(error: MessageError): ErrorDisplay {
  const data = (error.data ?? {}) as { message?: unknown; statusCode?: unknown; providerID?: unknown }
  const full = typeof data.message === 'string' && data.message.trim() ? data.message.trim() : error.name
  const nl = full.indexOf('\n')
  const message = nl === -1 ? full : full.slice(0, nl).trim()
  const details = nl === -1 ? undefined : full.slice(nl + 1).trim() || undefined
  const statusCode = typeof data.statusCode === 'number' ? data.statusCode : undefined
  return { name: error.name, message, statusCode, details, aborted: error.name === 'MessageAbortedError' }
}

/** The error a message row shows, if any (only assistant messages carry one). */
export function messageError(m: MessageWithParts): MessageError | undefined {
  return m.info.role === 'assistant' ? m.info.error : undefined
}

function sameError(a: MessageError, b: MessageError): boolean {
  const da = describeError(a)
  const db = describeError(b)
  return da.name === db.name && da.message === db.message
}

/**
 * Whether the banner should show a session error: not when the timeline already shows it.
 * The error is matched against the visible messages after the last user message (the current turn),
 * so an older identical failure does not hide a new one.
 */
export function bannerError(sessionError: MessageError | undefined, messages: MessageWithParts[]): MessageError | undefined {
  if (!sessionError) return undefined
  // Stop is the user's own action; the timeline already says "Stopped" or "No reply".
  if (sessionError.name === 'MessageAbortedError') return undefined
  let lastUser = -1
  messages.forEach((m, i) => {
    if (m.info.role === 'user') lastUser = i
  })
  const turn = messages.slice(lastUser + 1)
  if (
    turn.some((m) => {
      const e = messageError(m)
      return e !== undefined && sameError(e, sessionError)
    })
  )
    return undefined
  return sessionError
}

/** What the composer says when a message did not go out: why, and that its text is back in the box. */
export function sendFailedText(err: unknown): string {
  return `${errorMessage(err).replace(/[.\s]+$/, '')} — your message is kept.`
}
