/**
 * The renderer's one event router, applyEventToQueryClient, against a real QueryClient: what each
 * kind of opencode event does to the cache the chat, the session list, the status line and the
 * permission and question cards read.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { applyEventToQueryClient } from '../../../src/app/use-event-stream'
import { queryKeys, type Scope } from '../../../src/api/query-keys'
import type { MessageWithParts, OpencodeEvent, Session, StatusMap, TextPart } from '../../../src/api/types'
import type { PermissionRequest, QuestionRequest } from '../../../src/features/chat/permissions'
import { assistant, ev, SID, session, user } from './fixtures'

const scope: Scope = { connection: 'c1', directory: '/p' }
const OTHER = 'ses_other00000000000000000'
const text = (id: string, messageID: string, t: string): TextPart => ({ id, sessionID: SID, messageID, type: 'text', text: t })
const permission = (id: string): PermissionRequest & Record<string, unknown> => ({ id, sessionID: SID, permission: 'bash', patterns: ['rm -rf build'], metadata: {}, always: [] })
const question = (id: string): QuestionRequest & Record<string, unknown> => ({ id, sessionID: SID, questions: [{ question: 'Which?', header: 'Pick', options: [] }] })

let qc: QueryClient
const route = (...events: OpencodeEvent[]) => events.forEach((e) => applyEventToQueryClient(qc, scope, e))
const messages = (sid = SID) => qc.getQueryData<MessageWithParts[]>(queryKeys.messages(scope, sid))
const sessions = () => qc.getQueryData<Session[]>(queryKeys.sessions(scope))
const status = () => qc.getQueryData<StatusMap>(queryKeys.status(scope))
const permissions = () => qc.getQueryData<PermissionRequest[]>(queryKeys.permissions(scope))
const questions = () => qc.getQueryData<QuestionRequest[]>(queryKeys.questions(scope))

beforeEach(() => {
  qc = new QueryClient()
  qc.setQueryData(queryKeys.sessions(scope), [session(SID, 10)])
  qc.setQueryData(queryKeys.status(scope), {})
  qc.setQueryData(queryKeys.messages(scope, SID), [user('msg_1')])
  qc.setQueryData(queryKeys.permissions(scope), [])
  qc.setQueryData(queryKeys.questions(scope), [])
})

describe('applyEventToQueryClient', () => {
  it('message and part events patch the session’s messages: new, streamed, finished, removed', () => {
    const a = assistant('msg_2', 'msg_1', { time: { created: 2 } })
    route(
      ev('message.updated', { sessionID: SID, info: a.info }),
      ev('message.part.updated', { sessionID: SID, part: text('prt_t', 'msg_2', 'echo: '), time: 1 }),
      ev('message.part.delta', { sessionID: SID, messageID: 'msg_2', partID: 'prt_t', field: 'text', delta: 'hi' }),
    )
    expect(messages()!.map((m) => m.info.id)).toEqual(['msg_1', 'msg_2'])
    expect((messages()![1]!.parts[0] as TextPart).text).toBe('echo: hi')

    route(ev('message.part.removed', { sessionID: SID, messageID: 'msg_2', partID: 'prt_t' }))
    expect(messages()![1]!.parts).toEqual([])
    route(ev('message.removed', { sessionID: SID, messageID: 'msg_2' }))
    expect(messages()!.map((m) => m.info.id)).toEqual(['msg_1'])
  })

  it('leaves a session whose messages were never loaded unloaded, and other sessions as they were', () => {
    const before = messages()
    route(ev('message.updated', { sessionID: OTHER, info: { ...user('msg_9').info, sessionID: OTHER } }))
    expect(messages(OTHER)).toBeUndefined()
    expect(messages()).toBe(before)
  })

  it('session.status and session.idle set the status the status line and Stop read', () => {
    route(ev('session.status', { sessionID: SID, status: { type: 'busy' } }))
    expect(status()![SID]).toEqual({ type: 'busy' })
    route(ev('session.status', { sessionID: SID, status: { type: 'retry', attempt: 2, message: 'rate limited', next: 5 } }))
    expect(status()![SID]).toEqual({ type: 'retry', attempt: 2, message: 'rate limited', next: 5 })
    route(ev('session.idle', { sessionID: SID }))
    expect(status()![SID]).toEqual({ type: 'idle' })
  })

  it('session events keep the list newest first; a deleted session’s messages leave the cache', () => {
    route(ev('session.created', { sessionID: OTHER, info: session(OTHER, 20) }))
    expect(sessions()!.map((s) => s.id)).toEqual([OTHER, SID])
    route(ev('session.updated', { sessionID: SID, info: session(SID, 30, { title: 'Renamed' }) }))
    expect(sessions()!.map((s) => [s.id, s.title])).toEqual([
      [SID, 'Renamed'],
      [OTHER, session(OTHER, 20).title],
    ])
    route(ev('session.deleted', { sessionID: SID, info: session(SID, 30) }))
    expect(sessions()!.map((s) => s.id)).toEqual([OTHER])
    expect(messages()).toBeUndefined()
  })

  it('permission.asked shows the permission card’s request; permission.replied takes it away', () => {
    route(ev('permission.asked', permission('per_1')), ev('permission.asked', permission('per_2')))
    expect(permissions()!.map((p) => p.id)).toEqual(['per_1', 'per_2'])
    route(ev('permission.replied', { sessionID: SID, requestID: 'per_1', reply: 'once' }))
    expect(permissions()!.map((p) => p.id)).toEqual(['per_2'])
  })

  it('question.asked shows the question; replied or rejected takes it away', () => {
    route(ev('question.asked', question('que_1')), ev('question.asked', question('que_2')))
    expect(questions()!.map((q) => q.id)).toEqual(['que_1', 'que_2'])
    route(ev('question.replied', { sessionID: SID, requestID: 'que_1', answers: [] }), ev('question.rejected', { sessionID: SID, requestID: 'que_2' }))
    expect(questions()).toEqual([])
  })

  it('an event about nothing cached changes nothing (no re-render anywhere)', () => {
    const before = [sessions(), status(), messages(), permissions(), questions()]
    route(ev('server.heartbeat', {}), ev('permission.replied', { sessionID: SID, requestID: 'per_unknown', reply: 'once' }))
    expect([sessions(), status(), messages(), permissions(), questions()]).toEqual(before)
    before.forEach((data, i) => expect([sessions(), status(), messages(), permissions(), questions()][i]).toBe(data))
  })
})
