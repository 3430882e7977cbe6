import { describe, expect, it } from 'vitest'
import { ApiError, describeBody, unwrap } from '../../../src/api/unwrap'

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

  it('reads the shapes opencode uses', () => {
    expect(describeBody({ _tag: 'SessionBusyError', message: 'Session is busy' })).toBe('Session is busy')
    expect(describeBody('Unsupported content-type')).toBe('Unsupported content-type')
    expect(describeBody({})).toBe('')
  })
})
