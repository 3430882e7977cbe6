import { describe, expect, it } from 'vitest'
import { applyToMessages, applyToSessionErrors, applyToSessions, applyToStatus } from '../../../src/api/apply-event'
import type { MessageWithParts, TextPart } from '../../../src/api/types'
import { assistant, ev, SID, session, user } from './fixtures'

const textPart = (id: string, messageID: string, text: string): TextPart => ({ id, sessionID: SID, messageID, type: 'text', text })

describe('applyToMessages', () => {
  it('appends message.part.delta to the part text, leaving other messages untouched', () => {
    const u = user('msg_1')
    const a = assistant('msg_2', 'msg_1', { time: { created: 2 } }, [textPart('prt_a', 'msg_2', 'echo: ')])
    const list = [u, a]
    const next = applyToMessages(list, ev('message.part.delta', { sessionID: SID, messageID: 'msg_2', partID: 'prt_a', field: 'text', delta: 'hi' }))!
    const next2 = applyToMessages(next, ev('message.part.delta', { sessionID: SID, messageID: 'msg_2', partID: 'prt_a', field: 'text', delta: ' there' }))!
    expect((next2[1]!.parts[0] as TextPart).text).toBe('echo: hi there')
    expect(next2[0]).toBe(u) // identity kept: memoized rows of other messages do not re-render
    expect((a.parts[0] as TextPart).text).toBe('echo: ') // no mutation
  })

  it('ignores a delta for an unknown part or message', () => {
    const list = [user('msg_1')]
    expect(applyToMessages(list, ev('message.part.delta', { sessionID: SID, messageID: 'msg_1', partID: 'prt_x', field: 'text', delta: 'x' }))).toBe(list)
    expect(applyToMessages(list, ev('message.part.delta', { sessionID: SID, messageID: 'msg_9', partID: 'prt_x', field: 'text', delta: 'x' }))).toBe(list)
  })

  it('inserts a new message and replaces info of an existing one, keeping its parts', () => {
    const u = user('msg_1')
    let list: MessageWithParts[] = [u]
    const a = assistant('msg_2', 'msg_1', { time: { created: 2 } })
    list = applyToMessages(list, ev('message.updated', { sessionID: SID, info: a.info }))!
    expect(list.map((m) => m.info.id)).toEqual(['msg_1', 'msg_2'])
    list = applyToMessages(list, ev('message.part.updated', { sessionID: SID, part: textPart('prt_t', 'msg_2', 'done'), time: 1 }))!
    const finished = { ...a.info, time: { created: 2, completed: 5 }, finish: 'stop' }
    list = applyToMessages(list, ev('message.updated', { sessionID: SID, info: finished }))!
    expect(list[1]!.info).toEqual(finished)
    expect(list[1]!.parts).toHaveLength(1)
  })

  it('message.part.updated replaces a part in place (tool pending → completed) or appends it', () => {
    const a = assistant('msg_2', 'msg_1')
    const tool = { id: 'prt_tool', sessionID: SID, messageID: 'msg_2', type: 'tool', callID: 'c', tool: 'write', state: { status: 'pending', input: {}, raw: '' } }
    let list = applyToMessages([a], ev('message.part.updated', { sessionID: SID, part: tool, time: 1 }))!
    list = applyToMessages(list, ev('message.part.updated', { sessionID: SID, part: textPart('prt_z', 'msg_2', 'x'), time: 1 }))!
    const done = { ...tool, state: { status: 'completed', input: { filePath: 'a' }, output: 'ok', title: 'a', metadata: {}, time: { start: 1, end: 2 } } }
    list = applyToMessages(list, ev('message.part.updated', { sessionID: SID, part: done, time: 2 }))!
    expect(list[0]!.parts.map((p) => p.id)).toEqual(['prt_tool', 'prt_z'])
    expect(list[0]!.parts[0]).toEqual(done)
  })

  it('handles message.removed followed by message.updated for the same id (a retake re-creates U)', () => {
    const u = user('msg_U', 'original')
    const a = assistant('msg_A', 'msg_U', {}, [textPart('prt_old', 'msg_A', 'echo: original')])
    let list: MessageWithParts[] = [user('msg_0'), assistant('msg_0a', 'msg_0'), u, a]
    list = applyToMessages(list, ev('message.removed', { sessionID: SID, messageID: 'msg_U' }))!
    list = applyToMessages(list, ev('message.removed', { sessionID: SID, messageID: 'msg_A' }))!
    expect(list.map((m) => m.info.id)).toEqual(['msg_0', 'msg_0a'])
    list = applyToMessages(list, ev('message.updated', { sessionID: SID, info: u.info }))!
    list = applyToMessages(list, ev('message.part.updated', { sessionID: SID, part: textPart('prt_new', 'msg_U', 'edited'), time: 3 }))!
    expect(list.map((m) => m.info.id)).toEqual(['msg_0', 'msg_0a', 'msg_U'])
    expect(list[2]!.parts).toEqual([textPart('prt_new', 'msg_U', 'edited')])
  })

  it('removes a part on message.part.removed', () => {
    const list = [user('msg_1', 'x', 'prt_1')]
    const next = applyToMessages(list, ev('message.part.removed', { sessionID: SID, messageID: 'msg_1', partID: 'prt_1' }))!
    expect(next[0]!.parts).toEqual([])
    expect(applyToMessages(next, ev('message.part.removed', { sessionID: SID, messageID: 'msg_1', partID: 'prt_1' }))).toBe(next)
  })

  it('leaves an unloaded list unloaded', () => {
    expect(applyToMessages(undefined, ev('message.updated', { sessionID: SID, info: user('msg_1').info }))).toBeUndefined()
  })
})

describe('applyToSessions', () => {
  it('inserts, updates (with revert), resorts newest first and deletes', () => {
    let list = [session('ses_b', 20), session('ses_a', 10)]
    list = applyToSessions(list, ev('session.created', { sessionID: 'ses_c', info: session('ses_c', 30) }))!
    expect(list.map((s) => s.id)).toEqual(['ses_c', 'ses_b', 'ses_a'])
    list = applyToSessions(list, ev('session.updated', { sessionID: 'ses_a', info: session('ses_a', 40, { revert: { messageID: 'msg_1' } }) }))!
    expect(list.map((s) => s.id)).toEqual(['ses_a', 'ses_c', 'ses_b'])
    expect(list[0]!.revert).toEqual({ messageID: 'msg_1' })
    list = applyToSessions(list, ev('session.deleted', { sessionID: 'ses_c', info: session('ses_c', 30) }))!
    expect(list.map((s) => s.id)).toEqual(['ses_a', 'ses_b'])
  })

  it('does not list child (subagent) sessions', () => {
    const list = [session('ses_a', 10)]
    expect(applyToSessions(list, ev('session.created', { sessionID: 'ses_k', info: session('ses_k', 50, { parentID: 'ses_a' }) }))).toBe(list)
  })
})

describe('applyToStatus and applyToSessionErrors', () => {
  it('tracks busy → retake → idle', () => {
    let m = applyToStatus({}, ev('session.status', { sessionID: SID, status: { type: 'busy' } }))
    m = applyToStatus(m, ev('session.status', { sessionID: SID, status: { type: 'retry', attempt: 2, message: 'x', next: 5 } }))
    expect(m?.[SID]).toEqual({ type: 'retry', attempt: 2, message: 'x', next: 5 })
    m = applyToStatus(m, ev('session.idle', { sessionID: SID }))
    expect(m?.[SID]).toEqual({ type: 'idle' })
  })

  it('keeps the last session.error until a new user message in that session', () => {
    const err = { name: 'UnknownError', data: { message: 'boom' } }
    const errors = applyToSessionErrors({}, ev('session.error', { sessionID: SID, error: err }))
    expect(errors[SID]).toEqual(err)
    expect(applyToSessionErrors(errors, ev('server.heartbeat', {}))).toBe(errors)
    expect(applyToSessionErrors(errors, ev('message.updated', { sessionID: SID, info: user('msg_2').info }))[SID]).toBeUndefined()
  })
})
