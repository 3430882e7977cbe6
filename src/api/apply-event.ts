/**
 * The event-stream reducer: pure functions that patch cached server state with one opencode event,
 * so the UI follows the stream without refetching (applied key by key to the query cache by
 * applyEventToQueryClient, app/use-event-stream.ts, the one router; its tests use a real QueryClient). Each returns the same object when nothing changed
 * (React Query then skips the re-render) and only copies the message/part that changed (so memoized
 * rows of other messages keep their identity).
 */
import type { MessageError, MessageWithParts, OpencodeEvent, Part, Session, StatusMap } from './types'

/** Newest first, the order the session list shows. */
export function sortSessions(list: Session[]): Session[] {
  return [...list].sort((a, b) => b.time.updated - a.time.updated)
}

/** Patches the session list; child (subagent) sessions are not listed. */
export function applyToSessions(list: Session[] | undefined, event: OpencodeEvent): Session[] | undefined {
  if (!list) return list
  switch (event.type) {
    case 'session.created':
    case 'session.updated': {
      const info = event.properties.info
      if (info.parentID || info.time.archived) return removeSession(list, info.id)
      const i = list.findIndex((s) => s.id === info.id)
      const next = i === -1 ? [info, ...list] : list.map((s, j) => (j === i ? info : s))
      return sortSessions(next)
    }
    case 'session.deleted':
      return removeSession(list, event.properties.info.id)
    default:
      return list
  }
}

function removeSession(list: Session[], id: string): Session[] {
  return list.some((s) => s.id === id) ? list.filter((s) => s.id !== id) : list
}

/** The session id an event is about, if it is about one session's messages. */
export function eventSessionID(event: OpencodeEvent): string | undefined {
  switch (event.type) {
    case 'message.updated':
    case 'message.removed':
    case 'message.part.updated':
    case 'message.part.removed':
    case 'message.part.delta':
    case 'session.status':
    case 'session.idle':
    case 'session.error':
      return event.properties.sessionID
    default:
      return undefined
  }
}

/** Patches one session's message list. */
export function applyToMessages(list: MessageWithParts[] | undefined, event: OpencodeEvent): MessageWithParts[] | undefined {
  if (!list) return list
  switch (event.type) {
    case 'message.updated': {
      const info = event.properties.info
      const i = list.findIndex((m) => m.info.id === info.id)
      // A retake removes a user message and re-creates it with the same id a few ms later: since the
      // removal dropped it (and every later message), appending puts it back in the right place.
      if (i === -1) return [...list, { info, parts: [] }]
      return replaceAt(list, i, { info, parts: list[i]!.parts })
    }
    case 'message.removed': {
      const id = event.properties.messageID
      return list.some((m) => m.info.id === id) ? list.filter((m) => m.info.id !== id) : list
    }
    case 'message.part.updated': {
      const part = event.properties.part
      return updateMessage(list, part.messageID, (m) => {
        const j = m.parts.findIndex((p) => p.id === part.id)
        const parts = j === -1 ? [...m.parts, part] : replaceAt(m.parts, j, part)
        return { info: m.info, parts }
      })
    }
    case 'message.part.removed': {
      const { messageID, partID } = event.properties
      return updateMessage(list, messageID, (m) => (m.parts.some((p) => p.id === partID) ? { info: m.info, parts: m.parts.filter((p) => p.id !== partID) } : m))
    }
    case 'message.part.delta': {
      const { messageID, partID, field, delta } = event.properties
      return updateMessage(list, messageID, (m) => {
        const j = m.parts.findIndex((p) => p.id === partID)
        if (j === -1) return m
        const part = m.parts[j] as Part & Record<string, unknown>
        const current = part[field]
        if (current !== undefined && typeof current !== 'string') return m
        const patched = { ...part, [field]: (current ?? '') + delta } as Part
        return { info: m.info, parts: replaceAt(m.parts, j, patched) }
      })
    }
    default:
      return list
  }
}

function updateMessage(list: MessageWithParts[], messageID: string, fn: (m: MessageWithParts) => MessageWithParts): MessageWithParts[] {
  const i = list.findIndex((m) => m.info.id === messageID)
  if (i === -1) return list
  const next = fn(list[i]!)
  return next === list[i] ? list : replaceAt(list, i, next)
}

function replaceAt<T>(list: T[], i: number, value: T): T[] {
  const next = list.slice()
  next[i] = value
  return next
}

/** Patches the session-status map (`session.idle` is the same as status idle). */
export function applyToStatus(map: StatusMap | undefined, event: OpencodeEvent): StatusMap | undefined {
  if (event.type === 'session.status') {
    return { ...(map ?? {}), [event.properties.sessionID]: event.properties.status }
  }
  if (event.type === 'session.idle') {
    if (map?.[event.properties.sessionID]?.type === 'idle') return map
    return { ...(map ?? {}), [event.properties.sessionID]: { type: 'idle' } }
  }
  return map
}

/** Records `session.error`s; a new user message in the session clears the old one. */
export function applyToSessionErrors(errors: Record<string, MessageError | undefined>, event: OpencodeEvent): Record<string, MessageError | undefined> {
  if (event.type === 'session.error') {
    const { sessionID, error } = event.properties
    if (!sessionID || !error) return errors
    return { ...errors, [sessionID]: error }
  }
  if (event.type === 'message.updated' && event.properties.info.role === 'user') {
    const id = event.properties.sessionID
    if (!errors[id]) return errors
    return { ...errors, [id]: undefined }
  }
  if (event.type === 'session.deleted') {
    const id = event.properties.info.id
    if (!(id in errors)) return errors
    const next = { ...errors }
    delete next[id]
    return next
  }
  return errors
}
