import { describe, expect, it } from 'vitest'
import { checkAuthorization, deviceCode, methodsFor, promptAnswers, signInErrorMessage, visiblePrompts, type AuthPrompt } from '../../../src/features/models/provider-auth'
import { ApiError } from '../../../shared/unwrap'

const prompts: AuthPrompt[] = [
  {
    type: 'select',
    key: 'kind',
    message: 'Kind',
    options: [
      { label: 'Public', value: 'public' },
      { label: 'Enterprise', value: 'enterprise' },
    ],
  },
  { type: 'text', key: 'url', message: 'Enterprise URL', when: { key: 'kind', op: 'eq', value: 'enterprise' } },
  { type: 'text', key: 'role', message: 'Role (optional)' },
]

describe('provider auth rules', () => {
  it('a provider the server does not list takes an API key', () => {
    expect(methodsFor('x', { y: [{ type: 'oauth', label: 'o' }] })).toEqual([{ type: 'api', label: 'API key' }])
    expect(methodsFor('y', { y: [{ type: 'oauth', label: 'o' }] })).toEqual([{ type: 'oauth', label: 'o' }])
  })
  it('`when` shows a prompt only once the answer it depends on matches', () => {
    expect(visiblePrompts(prompts, {}).map((p) => p.key)).toEqual(['kind', 'role'])
    expect(visiblePrompts(prompts, { kind: 'enterprise' }).map((p) => p.key)).toEqual(['kind', 'url', 'role'])
    expect(visiblePrompts([{ ...prompts[1]!, when: { key: 'kind', op: 'neq', value: 'public' } }], { kind: 'public' })).toEqual([])
  })
  it('answers: selects default to their first option, optional prompts may stay empty, required ones may not', () => {
    expect(promptAnswers(prompts, {})).toEqual({ ok: true, inputs: { kind: 'public' } })
    expect(promptAnswers(prompts, { kind: 'enterprise' })).toEqual({ ok: false, missing: 'Enterprise URL' })
    expect(promptAnswers(prompts, { kind: 'enterprise', url: ' g.example ', role: 'r' })).toEqual({ ok: true, inputs: { kind: 'enterprise', url: 'g.example', role: 'r' } })
  })
  it('finds a device code in the instructions', () => {
    expect(deviceCode('Enter code: AB12-CD34')).toBe('AB12-CD34')
    expect(deviceCode('Enter code: ABCD-12345 at github')).toBe('ABCD-12345')
    expect(deviceCode('Complete authorization in your browser.')).toBeNull()
  })
  it('accepts only an http(s) address and a known flow', () => {
    expect(checkAuthorization({ url: 'https://a.example/x', method: 'code', instructions: 'i' })).toEqual({ url: 'https://a.example/x', method: 'code', instructions: 'i' })
    expect(() => checkAuthorization(undefined)).toThrow('no sign-in address')
    expect(() => checkAuthorization({ url: 'javascript:alert(1)', method: 'auto' })).toThrow('no sign-in address')
    expect(() => checkAuthorization({ url: 'https://a.example', method: 'magic' })).toThrow('does not know (magic)')
  })
  it('says what went wrong in words', () => {
    const missing = new ApiError('provider.oauth.callback', 400, { name: 'ProviderAuthOauthMissing', data: {} }, 'x')
    expect(signInErrorMessage('finish', 'Poe', missing)).toBe(
      'Signing in to Poe did not finish: the server has no sign-in in progress for this provider (it may have restarted): start again.',
    )
    expect(signInErrorMessage('start', 'Poe', new ApiError('a', undefined, undefined, 'x'))).toMatch(/did not answer/)
    expect(signInErrorMessage('start', 'Poe', new ApiError('a', 500, { name: 'UnknownError', data: { message: 'Boom' } }, 'x'))).toMatch(/HTTP 500: Boom\)\. It talks to Poe/)
  })
})
