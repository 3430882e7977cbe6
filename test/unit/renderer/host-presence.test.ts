/**
 * Browser mode's bridge notices that its host has gone: no answer at all (the process ended), or a
 * refusal from a later process on the port (401/421: it never serves this tab's origin). A host
 * that answers again clears it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createHttpBridge } from '../../../src/bridge/http-bridge'
import { hostPresence, setHostPresence } from '../../../src/bridge/host-presence'

afterEach(() => {
  vi.unstubAllGlobals()
  setHostPresence('up')
})

const envelope = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('host presence', () => {
  it('a call nobody answers says so in words, and the host counts as gone once a look finds nobody', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    )
    await expect(createHttpBridge().invoke('app.info', {})).rejects.toThrow('Retake is not answering: it may have stopped running')
    await vi.waitFor(() => expect(hostPresence()).toBe('gone'))
  })

  it('a refusal from a later process on the port counts as gone at once', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope(421, { ok: false, error: { code: 'forbidden', message: 'unexpected Host header' } })),
    )
    await expect(createHttpBridge().invoke('server.status', {})).rejects.toThrow()
    expect(hostPresence()).toBe('gone')
  })

  it('an answering host is up', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => envelope(200, { ok: true, data: { state: 'ready' } })),
    )
    await expect(createHttpBridge().invoke('server.status', {})).resolves.toEqual({ state: 'ready' })
    expect(hostPresence()).toBe('up')
  })
})
