import { describe, expect, it } from 'vitest'
import type { OpencodeEvent } from '../../../src/api/types'
import { turnNotice, type NoticeContext } from '../../../src/features/sessions/turn-notifications'

const ev = (type: string, properties: object) => ({ type, properties }) as unknown as OpencodeEvent
const ctx = (over: Partial<NoticeContext> = {}): NoticeContext => ({
  away: true,
  failed: () => false,
  titleOf: (sid) => (sid === 'ses_a' ? 'Fix the parser' : undefined),
  ...over,
})

describe('turn notifications', () => {
  it('a turn that ends while the window is in the background: finished, with the session title', () => {
    expect(turnNotice(ev('session.idle', { sessionID: 'ses_a' }), ctx())).toEqual({ title: 'Turn finished', body: 'Fix the parser', sessionID: 'ses_a' })
    expect(turnNotice(ev('session.idle', { sessionID: 'ses_x' }), ctx())?.body).toBe('Untitled session')
  })

  it('a failure says why (first line of the provider message), and the idle after it adds nothing', () => {
    const error = { name: 'APIError', data: { message: 'Rate limit reached\nretry later', statusCode: 429 } }
    expect(turnNotice(ev('session.error', { sessionID: 'ses_a', error }), ctx())).toEqual({
      title: 'Turn failed',
      body: 'Fix the parser: Rate limit reached',
      sessionID: 'ses_a',
    })
    expect(turnNotice(ev('session.idle', { sessionID: 'ses_a' }), ctx({ failed: () => true }))).toBeNull()
  })

  it('nothing while the user is looking, for a turn stopped on purpose, or for other events', () => {
    expect(turnNotice(ev('session.idle', { sessionID: 'ses_a' }), ctx({ away: false }))).toBeNull()
    expect(turnNotice(ev('session.error', { sessionID: 'ses_a', error: { name: 'MessageAbortedError', data: { message: 'aborted' } } }), ctx())).toBeNull()
    expect(turnNotice(ev('session.error', { error: { name: 'UnknownError', data: { message: 'x' } } }), ctx())).toBeNull()
    expect(turnNotice(ev('message.updated', { info: { id: 'm', sessionID: 'ses_a', role: 'assistant' } }), ctx())).toBeNull()
  })
})
