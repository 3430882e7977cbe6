import { describe, expect, it, vi } from 'vitest'
import { createRouter, RouteError, type Handlers } from '../../../core/ipc/router'

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const notUsed = () => {
    throw new Error('not used')
  }
  const base = new Proxy({} as Handlers, { get: () => notUsed })
  return Object.assign(Object.create(base), overrides) as Handlers
}

describe('the IPC router', () => {
  it('refuses an untrusted sender before looking at anything else', async () => {
    const handler = vi.fn()
    const dispatch = createRouter(handlers({ 'app.info': handler }), { isTrustedSender: () => false })
    expect(await dispatch('app.info', {}, {})).toEqual({ ok: false, error: { code: 'forbidden', message: expect.any(String) } })
    expect(handler).not.toHaveBeenCalled()
  })

  it('refuses unknown channels, including prototype names', async () => {
    const dispatch = createRouter(handlers(), { isTrustedSender: () => true })
    for (const name of ['nope', '__proto__', 'constructor', 'toString', 42]) {
      const r = await dispatch(name, {}, {})
      expect(r).toMatchObject({ ok: false, error: { code: 'not-found' } })
    }
  })

  it('validates input with the channel’s schema and never calls the handler with bad input', async () => {
    const handler = vi.fn()
    const dispatch = createRouter(handlers({ 'projects.open': handler }), { isTrustedSender: () => true })
    const r = await dispatch('projects.open', { path: 42 }, {})
    expect(r).toMatchObject({ ok: false, error: { code: 'bad-input', message: expect.stringContaining('projects.open') } })
    const extra = await dispatch('app.info', { sneaky: true }, {})
    expect(extra).toMatchObject({ ok: false, error: { code: 'bad-input' } })
    expect(handler).not.toHaveBeenCalled()
  })

  it('wraps results and errors in the envelope instead of throwing', async () => {
    const dispatch = createRouter(
      handlers({
        'projects.recent': () => [{ path: '/p', name: 'p', openedAt: 1 }],
        'projects.forget': () => {
          throw new RouteError('not-found', 'no such project')
        },
        'projects.open': () => {
          throw new Error('disk on fire')
        },
      }),
      { isTrustedSender: () => true },
    )
    expect(await dispatch('projects.recent', {}, {})).toEqual({ ok: true, data: [{ path: '/p', name: 'p', openedAt: 1 }] })
    expect(await dispatch('projects.forget', { path: '/p' }, {})).toEqual({ ok: false, error: { code: 'not-found', message: 'no such project' } })
    expect(await dispatch('projects.open', { path: '/p' }, {})).toEqual({ ok: false, error: { code: 'internal', message: 'disk on fire' } })
  })

  it('does not let a handler return a value that breaks the contract', async () => {
    const dispatch = createRouter(handlers({ 'projects.recent': () => [{ path: 3 }] as never }), { isTrustedSender: () => true })
    expect(await dispatch('projects.recent', {}, {})).toMatchObject({ ok: false, error: { code: 'internal' } })
  })
})
