/**
 * What the session list says about sessions the user is not looking at: a turn there finished
 * ("done") or failed since they last looked. Runs take minutes; people switch sessions meanwhile
 * and must not have to open each one to learn which answered and which broke.
 */
import type { OpencodeEvent } from '../../api/types'

export type SessionMark = 'done' | 'failed'
export type SessionMarks = Record<string, SessionMark | undefined>

/** The marks after `event`, with `shown` the session on screen (it never gets one). */
export function applyToMarks(marks: SessionMarks, event: OpencodeEvent, shown: string | undefined): SessionMarks {
  switch (event.type) {
    case 'session.error': {
      const sid = event.properties.sessionID
      if (!sid || sid === shown || marks[sid] === 'failed') return marks
      return { ...marks, [sid]: 'failed' }
    }
    case 'session.idle': {
      const sid = event.properties.sessionID
      // A failure stays: the idle that follows it is the same turn ending.
      if (sid === shown || marks[sid]) return marks
      return { ...marks, [sid]: 'done' }
    }
    case 'session.deleted': {
      const sid = event.properties.info.id
      if (!(sid in marks)) return marks
      const next = { ...marks }
      delete next[sid]
      return next
    }
    default:
      return marks
  }
}

/** The user looked at `sessionID`: whatever happened there is seen. */
export function clearMark(marks: SessionMarks, sessionID: string): SessionMarks {
  if (!marks[sessionID]) return marks
  const next = { ...marks }
  delete next[sessionID]
  return next
}
