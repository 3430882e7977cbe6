/**
 * Browser mode's implementation of the bridge: the same channels as the desktop preload, carried over
 * HTTP to the browser-mode host (same origin, authenticated by the host's session cookie).
 */
import type { ChannelName, Envelope, EventName, RetakeBridge } from '../../shared/ipc-contract'
import { BridgeError } from './bridge-error'

export function createHttpBridge(base = ''): RetakeBridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  let source: EventSource | null = null

  function ensureEventSource() {
    // No EventSource (a non-browser environment): calls still work, pushes are simply not received.
    if (source || typeof EventSource === 'undefined') return
    source = new EventSource(`${base}/api/events`)
    source.onmessage = (ev) => {
      try {
        const { event, payload } = JSON.parse(ev.data) as { event: string; payload: unknown }
        listeners.get(event)?.forEach((l) => l(payload))
      } catch {
        // A malformed frame is dropped; the next status push carries the full state again.
      }
    }
  }

  return {
    async invoke(channel: ChannelName, input: unknown) {
      let res: Response
      try {
        res = await fetch(`${base}/api/rpc/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-retake-rpc': '1' },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
        })
      } catch (err) {
        throw new BridgeError('unavailable', `Retake host unreachable: ${(err as Error).message}`)
      }
      let envelope: Envelope<unknown>
      try {
        envelope = (await res.json()) as Envelope<unknown>
      } catch {
        throw new BridgeError('internal', `Retake host answered HTTP ${res.status} without a result`)
      }
      if (!envelope.ok) throw new BridgeError(envelope.error.code, envelope.error.message)
      return envelope.data as never
    },
    on(event: EventName, listener: (payload: never) => void) {
      ensureEventSource()
      const set = listeners.get(event) ?? new Set()
      set.add(listener as (payload: unknown) => void)
      listeners.set(event, set)
      return () => set.delete(listener as (payload: unknown) => void)
    },
  } as RetakeBridge
}
