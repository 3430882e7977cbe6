import { describe, expect, it } from 'vitest'
import { visibleMessages } from '../../../src/features/chat/visible-messages'
import { bannerError, describeError } from '../../../src/api/message-errors'
import { isBusy, statusLine } from '../../../src/features/chat/status-line'
import { modelForPrompt, parseModelKey, resolveModel, serverDefaultModel } from '../../../src/features/models/model-choice'
import { relativeTime } from '../../../src/ui/relative-time'
import { apiError, assistant, session, user } from './fixtures'

describe('visibleMessages (revert)', () => {
  // Ids deliberately do not sort: hiding must follow list order.
  const list = [user('msg_z1'), assistant('msg_a2', 'msg_z1'), user('msg_000'), assistant('msg_m4', 'msg_000')]

  it('shows everything without revert', () => {
    expect(visibleMessages(list, undefined)).toBe(list)
  })
  it('hides from revert.messageID onward in list order', () => {
    expect(visibleMessages(list, { messageID: 'msg_000' }).map((m) => m.info.id)).toEqual(['msg_z1', 'msg_a2'])
  })
  it('with partID keeps the message but hides its parts from partID on', () => {
    const a = assistant('msg_a2', 'msg_z1', {}, [
      { id: 'prt_1', sessionID: 's', messageID: 'msg_a2', type: 'text', text: 'a' },
      {
        id: 'prt_2',
        sessionID: 's',
        messageID: 'msg_a2',
        type: 'step-finish',
        reason: 'stop',
        cost: 0,
        tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
      },
    ])
    const out = visibleMessages([list[0]!, a, list[2]!], { messageID: 'msg_a2', partID: 'prt_2' })
    expect(out.map((m) => m.info.id)).toEqual(['msg_z1', 'msg_a2'])
    expect(out[1]!.parts.map((p) => p.id)).toEqual(['prt_1'])
  })
  it('ignores a revert to an unknown message', () => {
    expect(visibleMessages(list, { messageID: 'msg_nope' })).toBe(list)
  })
})

describe('error display and banner de-duplication', () => {
  it('describes provider errors with message and status code', () => {
    expect(describeError(apiError('Injected failure FAIL400', 400))).toEqual({
      name: 'APIError',
      message: 'Injected failure FAIL400',
      statusCode: 400,
      details: undefined,
      aborted: false,
    })
    expect(describeError({ name: 'MessageAbortedError', data: { message: 'Aborted' } }).aborted).toBe(true)
  })

  it('keeps the first line as the message and folds the rest (server stack traces)', () => {
    const d = describeError({ name: 'UnknownError', data: { message: 'ProviderModelNotFoundError: Model not found: local/nope.\n    at x (a.js:1)' } })
    expect(d.message).toBe('ProviderModelNotFoundError: Model not found: local/nope.')
    expect(d.details).toBe('at x (a.js:1)')
  })

  it('hides the banner when the current turn shows the same error', () => {
    const err = apiError('rate limited', 429)
    const msgs = [user('msg_1'), assistant('msg_2', 'msg_1', { error: err })]
    expect(bannerError(err, msgs)).toBeUndefined()
  })

  it('shows the banner when no message carries the error (e.g. unknown model, no reply)', () => {
    const err = { name: 'UnknownError' as const, data: { message: 'Model not found' } }
    expect(bannerError(err, [user('msg_1')])).toEqual(err)
    expect(bannerError(undefined, [user('msg_1')])).toBeUndefined()
  })

  it("never shows a banner for the user's own Stop", () => {
    expect(bannerError({ name: 'MessageAbortedError', data: { message: 'Aborted' } }, [user('msg_1')])).toBeUndefined()
  })

  it('an identical error in an older turn does not hide a new one', () => {
    const err = apiError('boom', 500)
    const msgs = [user('msg_1'), assistant('msg_2', 'msg_1', { error: err }), user('msg_3')]
    expect(bannerError(err, msgs)).toEqual(err)
  })
})

describe('statusLine', () => {
  it('idle, busy, offline', () => {
    expect(statusLine(undefined, 0).text).toBe('Idle')
    expect(statusLine({ type: 'idle' }, 0).kind).toBe('idle')
    expect(statusLine({ type: 'busy' }, 0)).toEqual({ kind: 'busy', text: 'Working…' })
    expect(statusLine({ type: 'busy' }, 0, false).kind).toBe('offline')
  })
  it('retry shows attempt and a countdown rounded up, never negative', () => {
    const s = { type: 'retry' as const, attempt: 3, message: 'Rate limited', next: 10_000 }
    expect(statusLine(s, 0)).toEqual({ kind: 'retry', text: 'Provider retrying: attempt 3, next try in 10 s', detail: 'Rate limited' })
    expect(statusLine(s, 8_500).text).toBe('Provider retrying: attempt 3, next try in 2 s')
    expect(statusLine(s, 12_000).text).toBe('Provider retrying: attempt 3, next try in 0 s')
  })
  it('isBusy', () => {
    expect(isBusy(undefined)).toBe(false)
    expect(isBusy({ type: 'idle' })).toBe(false)
    expect(isBusy({ type: 'retry', attempt: 1, message: '', next: 0 })).toBe(true)
  })
})

describe('model choice', () => {
  const providers = [{ id: 'local', name: 'Local', source: 'config', env: [], options: {}, models: { echo: { id: 'echo', name: 'Echo' } } }] as never
  it('parses provider/model keys with slashes in the model id', () => {
    expect(parseModelKey('openrouter/anthropic/claude')).toEqual({ providerID: 'openrouter', modelID: 'anthropic/claude' })
    expect(parseModelKey('nope')).toBeUndefined()
  })
  it('server default: config model, else first provider default', () => {
    expect(serverDefaultModel('x/y', providers, {})).toEqual({ providerID: 'x', modelID: 'y' })
    expect(serverDefaultModel(undefined, providers, { local: 'echo' })).toEqual({ providerID: 'local', modelID: 'echo' })
  })
  it('resolution order: chosen, session, default; only chosen/session are sent', () => {
    const def = { providerID: 'local', modelID: 'echo' }
    const chosen = { providerID: 'a', modelID: 'b' }
    const s = session('ses_1', 1, { model: { id: 'm', providerID: 'p' } })
    expect(resolveModel(chosen, s, def)).toEqual({ ref: chosen, source: 'chosen' })
    expect(resolveModel(undefined, s, def)).toEqual({ ref: { providerID: 'p', modelID: 'm' }, source: 'session' })
    const r = resolveModel(undefined, session('ses_2', 1), def)
    expect(r.source).toBe('default')
    expect(modelForPrompt(r)).toBeUndefined()
  })
})

describe('relativeTime', () => {
  it('formats', () => {
    expect(relativeTime(0, 10_000)).toBe('just now')
    expect(relativeTime(0, 5 * 60_000)).toBe('5 min ago')
    expect(relativeTime(0, 3 * 3_600_000)).toBe('3 h ago')
    expect(relativeTime(0, 2 * 86_400_000)).toBe('2 d ago')
  })
})
