import { describe, expect, it } from 'vitest'
import type { OpencodeEvent } from '../../../src/api/types'
import { applyToMarks, clearMark } from '../../../src/features/sessions/session-marks'

const ev = (type: string, properties: object) => ({ type, properties }) as unknown as OpencodeEvent
const idle = (sessionID: string) => ev('session.idle', { sessionID })
const failed = (sessionID: string) => ev('session.error', { sessionID, error: { name: 'APIError', data: { message: 'boom' } } })

describe('session marks (unseen outcomes off screen)', () => {
  it('a turn that ends in a session off screen marks it done; one that fails marks it failed, and the idle after the failure keeps that', () => {
    let m = applyToMarks({}, idle('ses_a'), 'ses_shown')
    expect(m).toEqual({ ses_a: 'done' })
    m = applyToMarks(m, failed('ses_b'), 'ses_shown')
    m = applyToMarks(m, idle('ses_b'), 'ses_shown')
    expect(m).toEqual({ ses_a: 'done', ses_b: 'failed' })
    // A later failure in a session already marked done is the news that matters.
    expect(applyToMarks(m, failed('ses_a'), 'ses_shown').ses_a).toBe('failed')
  })

  it('the session on screen never gets a mark; looking at a session clears its mark; a deleted session loses it', () => {
    const m = { ses_a: 'failed' as const }
    expect(applyToMarks({}, idle('ses_shown'), 'ses_shown')).toEqual({})
    expect(applyToMarks({}, failed('ses_shown'), 'ses_shown')).toEqual({})
    expect(clearMark(m, 'ses_a')).toEqual({})
    expect(clearMark(m, 'ses_other')).toBe(m)
    expect(applyToMarks(m, ev('session.deleted', { info: { id: 'ses_a' } }), undefined)).toEqual({})
  })

  it('other events and an error without a session change nothing (same object: no re-render)', () => {
    const m = { ses_a: 'done' as const }
    expect(applyToMarks(m, ev('session.error', { error: { name: 'UnknownError', data: { message: 'x' } } }), undefined)).toBe(m)
    expect(applyToMarks(m, ev('message.updated', { info: { id: 'msg_1', sessionID: 'ses_b', role: 'user' } }), undefined)).toBe(m)
    expect(applyToMarks(m, idle('ses_a'), undefined)).toBe(m)
  })
})
