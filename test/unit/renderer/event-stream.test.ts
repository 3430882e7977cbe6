import { describe, expect, it, vi } from 'vitest'
import { connectEventStream, HEARTBEAT_TIMEOUT_MS, parseEventFrame, type StreamDeps } from '../../../src/api/event-stream'

class FakeSource {
  readyState = 0
  onopen: (() => void) | null = null
  onmessage: ((e: { data: string }) => void) | null = null
  onerror: (() => void) | null = null
  closed = false
  close() {
    this.closed = true
    this.readyState = 2
  }
}

function harness() {
  const sources: FakeSource[] = []
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = []
  const deps: StreamDeps = {
    createSource: () => {
      const s = new FakeSource()
      sources.push(s)
      return s as unknown as EventSource
    },
    schedule: (fn) => fn(),
    setTimer: (fn, ms) => {
      const t = { fn, ms, cleared: false }
      timers.push(t)
      return t
    },
    clearTimer: (h) => ((h as { cleared: boolean }).cleared = true),
  }
  return { sources, timers, deps }
}

describe('event stream', () => {
  it('parses frames', () => {
    expect(parseEventFrame('{"type":"server.connected","properties":{}}')?.type).toBe('server.connected')
    expect(parseEventFrame('nope')).toBeNull()
    expect(parseEventFrame('{"x":1}')).toBeNull()
  })

  it('delivers events, reports reconnects, and reopens after the browser gives up', () => {
    const { sources, timers, deps } = harness()
    const onEvents = vi.fn()
    const onOpen = vi.fn()
    const onDown = vi.fn()
    const close = connectEventStream('/x', { onEvents, onOpen, onDown }, deps)
    sources[0]!.onopen!()
    expect(onOpen).toHaveBeenLastCalledWith(false)
    sources[0]!.onmessage!({ data: '{"type":"session.idle","properties":{"sessionID":"s"}}' })
    expect(onEvents).toHaveBeenCalledWith([{ type: 'session.idle', properties: { sessionID: 's' } }])
    // HTTP error: EventSource is CLOSED and will not retry itself.
    sources[0]!.readyState = 2
    sources[0]!.onerror!()
    expect(onDown).toHaveBeenCalled()
    const retry = timers.filter((t) => !t.cleared && t.ms !== HEARTBEAT_TIMEOUT_MS).pop()!
    retry.fn()
    expect(sources).toHaveLength(2)
    sources[1]!.onopen!()
    expect(onOpen).toHaveBeenLastCalledWith(true)
    close()
    expect(sources[1]!.closed).toBe(true)
  })

  it('treats a missing heartbeat as a dead connection', () => {
    const { sources, timers, deps } = harness()
    connectEventStream('/x', { onEvents() {}, onOpen() {}, onDown() {} }, deps)
    sources[0]!.onopen!()
    const watchdog = timers.find((t) => t.ms === HEARTBEAT_TIMEOUT_MS && !t.cleared)!
    watchdog.fn()
    expect(sources[0]!.closed).toBe(true)
  })
})
