// The host's relay of opencode's event stream (core/server/event-relay.ts) on fake timers:
// opencode beats only every 10 s, so a silent subscription is renewed after 5 s; the old one is
// closed quietly when it proves alive, and as dead (with a resync for the renderer) when its
// heartbeat is overdue; a server that does not answer ends the stream.
import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LATE_MS, PROBE_MS, RESYNC_FRAME, SILENCE_MS, realTimers, relayEvents } from '../../../core/server/event-relay'

const frame = (id: string, type: string) => `data: ${JSON.stringify({ id, type, properties: {} })}\n\n`
/** Lets stream events (nextTick / setImmediate, which stay real) run. */
const settle = () => new Promise((r) => setImmediate(r))

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }))
afterEach(() => vi.useRealTimers())

function harness(answers: (PassThrough | null)[]) {
  const first = new PassThrough()
  const reopen = vi.fn(async () => answers.shift() ?? null)
  const out = relayEvents(first, { reopen, ...realTimers })
  let text = ''
  let ended = false
  out.setEncoding('utf8')
  out.on('data', (c: string) => (text += c))
  out.on('end', () => (ended = true))
  return { first, reopen, out: () => text, ended: () => ended }
}

describe('event relay', () => {
  it('passes frames on; after 5 s of silence subscribes again; an old stream that beats is closed quietly and shared events pass once', async () => {
    const second = new PassThrough()
    const h = harness([second])
    h.first.write(frame('e1', 'server.connected'))
    await settle()
    expect(h.out()).toBe(frame('e1', 'server.connected'))

    await vi.advanceTimersByTimeAsync(SILENCE_MS - 1)
    expect(h.reopen).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(h.reopen).toHaveBeenCalledTimes(1)
    second.write(frame('e2', 'server.connected'))
    // One event published to both subscriptions: the same id, passed on once.
    h.first.write(frame('e3', 'session.updated'))
    second.write(frame('e3', 'session.updated'))
    await settle()
    expect(h.out()).toBe(frame('e1', 'server.connected') + frame('e2', 'server.connected') + frame('e3', 'session.updated'))
    // The old stream delivered: it was alive, nothing missed, closed without a resync.
    expect(h.first.destroyed).toBe(true)
    await vi.advanceTimersByTimeAsync(SILENCE_MS - 1)
    expect(h.out()).not.toContain('retake.resync')
    expect(h.ended()).toBe(false)
  })

  it('a stream that died with its connection open: live events flow again within 5 s, and its overdue heartbeat asks for a resync', async () => {
    const second = new PassThrough()
    const h = harness([second])
    h.first.write(frame('e1', 'server.heartbeat'))
    await settle()
    // The first subscription says nothing more (its heartbeat is due at 10 s and never comes).
    await vi.advanceTimersByTimeAsync(SILENCE_MS)
    second.write(frame('e2', 'server.connected'))
    second.write(frame('e3', 'message.updated'))
    await settle()
    expect(h.out()).toContain('"message.updated"')
    expect(h.out()).not.toContain('retake.resync')
    // The new subscription beats on; the old one's heartbeat, due at 10 s, is overdue at 11 s.
    await vi.advanceTimersByTimeAsync(SILENCE_MS - 1)
    second.write(frame('e4', 'server.heartbeat'))
    await settle()
    expect(h.out()).not.toContain('retake.resync')
    await vi.advanceTimersByTimeAsync(LATE_MS - 2 * SILENCE_MS + 1)
    await settle()
    expect(h.out().endsWith(RESYNC_FRAME)).toBe(true)
    expect(h.first.destroyed).toBe(true)
    expect(second.destroyed).toBe(false)
    expect(h.ended()).toBe(false)
  })

  it('a server that does not answer a new subscription within 2 s ends the stream (the renderer reconnects and refetches)', async () => {
    const mute = new PassThrough()
    const h = harness([mute])
    await vi.advanceTimersByTimeAsync(SILENCE_MS + PROBE_MS - 1)
    await settle()
    expect(h.ended()).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await settle()
    expect(h.ended()).toBe(true)
    expect(h.first.destroyed && mute.destroyed).toBe(true)
  })

  it('a server that refuses the new subscription ends the stream at once', async () => {
    const h = harness([null])
    await vi.advanceTimersByTimeAsync(SILENCE_MS)
    await settle()
    expect(h.ended()).toBe(true)
  })
})
