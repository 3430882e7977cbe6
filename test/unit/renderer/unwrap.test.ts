import { describe, expect, it } from 'vitest'
import { ApiError, describeBody, errorMessage, PromptFailedError, unwrap, unwrapPrompt } from '../../../shared/unwrap'

const res = (status: number) => new Response(null, { status })

describe('unwrap', () => {
  it('returns data on 2xx', () => {
    expect(unwrap('x', { data: { a: 1 }, response: res(200) })).toEqual({ a: 1 })
    expect(unwrap('x', { data: {}, response: res(200) })).toEqual({})
  })

  it('throws with status and body on an error body', () => {
    const body = { name: 'NotFoundError', data: { message: 'Session not found: ses_x' } }
    try {
      unwrap('session.get', { error: body, response: res(404) })
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError)
      const err = e as ApiError
      expect(err.status).toBe(404)
      expect(err.body).toBe(body)
      expect(err.message).toBe('session.get: HTTP 404: Session not found: ses_x')
    }
  })

  it('throws on !response.ok even without an error (e.g. 401 with an empty body)', () => {
    expect(() => unwrap('session.list', { data: {}, response: res(401) })).toThrow('session.list: HTTP 401')
  })

  it('throws on a network failure (no response)', () => {
    expect(() => unwrap('x', { error: new TypeError('fetch failed'), response: undefined })).toThrow('x: no response from the server: fetch failed')
  })

  it('shows people a sentence, never the call’s name', () => {
    const fail = (status: number | undefined, error?: unknown) => {
      try {
        unwrap('session.promptAsync', { error, response: status === undefined ? undefined : res(status) })
      } catch (e) {
        return errorMessage(e)
      }
      throw new Error('no throw')
    }
    expect(fail(undefined, new TypeError('fetch failed'))).toBe('The server is not answering')
    expect(fail(500, { name: 'UnknownError', data: { message: 'boom' } })).toBe('The server failed (HTTP 500): boom')
    expect(fail(404, { name: 'NotFoundError', data: { message: 'Session not found: ses_x' } })).toBe('Session not found: ses_x')
    expect(fail(400)).toBe('The server did not accept this (HTTP 400)')
    for (const s of [undefined, 400, 401, 404, 409, 500]) expect(fail(s)).not.toMatch(/session\.promptAsync/)
  })

  it('reads the shapes opencode uses', () => {
    expect(describeBody({ _tag: 'SessionBusyError', message: 'Session is busy' })).toBe('Session is busy')
    expect(describeBody('Unsupported content-type')).toBe('Unsupported content-type')
    expect(describeBody({})).toBe('')
  })
})

describe('unwrapPrompt', () => {
  const ok = (info: { parentID?: string; error?: { name: string; data?: unknown } }) => ({ data: { info, parts: [] }, response: res(200) })
  it('returns a successful turn', () => {
    expect(unwrapPrompt(ok({ parentID: 'msg_u' }), 'msg_u').info.parentID).toBe('msg_u')
  })
  it('throws on a failed turn that came back HTTP 200', () => {
    const r = ok({ parentID: 'msg_u', error: { name: 'APIError', data: { message: 'rate limited', statusCode: 429 } } })
    expect(() => unwrapPrompt(r, 'msg_u')).toThrow(PromptFailedError)
    expect(() => unwrapPrompt(r, 'msg_u')).toThrow('APIError: rate limited')
  })
  it('throws when the answer belongs to another (queued) prompt', () => {
    expect(() => unwrapPrompt(ok({ parentID: 'msg_other' }), 'msg_u')).toThrow('expected a reply to msg_u')
  })
})
