import { describe, expect, it } from 'vitest'
import { matchAbortRequest, requestsToDeny, sessionAndDescendants } from '../../../core/turns/permissions-on-stop'

describe('permissions answered by a stop', () => {
  it('recognises an abort on its way through the proxy, with its folder', () => {
    expect(matchAbortRequest('POST', '/session/ses_1/abort', { 'x-opencode-directory': encodeURIComponent('/p/a b') })).toEqual({ sessionID: 'ses_1', directory: '/p/a b' })
    expect(matchAbortRequest('post', '/session/ses_1/abort?directory=%2Fq', {})).toEqual({ sessionID: 'ses_1', directory: '/q' })
    expect(matchAbortRequest('GET', '/session/ses_1/abort', {})).toBeNull()
    expect(matchAbortRequest('POST', '/session/ses_1/abortx', {})).toBeNull()
    expect(matchAbortRequest('POST', '/session/ses_1/message', {})).toBeNull()
  })

  it('denies the stopped session’s requests and its subagents’, never another session’s', () => {
    const sessions = [{ id: 'ses_a' }, { id: 'ses_b', parentID: 'ses_a' }, { id: 'ses_c', parentID: 'ses_b' }, { id: 'ses_x' }, { id: 'ses_y', parentID: 'ses_x' }]
    const stopped = sessionAndDescendants('ses_a', sessions)
    expect([...stopped].sort()).toEqual(['ses_a', 'ses_b', 'ses_c'])
    const pending = [
      { id: 'per_1', sessionID: 'ses_a' },
      { id: 'per_2', sessionID: 'ses_c' },
      { id: 'per_3', sessionID: 'ses_x' },
      { id: 'per_4', sessionID: 'ses_y' },
    ]
    expect(requestsToDeny(pending, stopped)).toEqual(['per_1', 'per_2'])
    expect(requestsToDeny(pending, sessionAndDescendants('ses_b', sessions))).toEqual(['per_2'])
  })
})
