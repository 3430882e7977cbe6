/**
 * Browser mode's implementation of the bridge: the same channels as the desktop preload, carried over
 * HTTP to the browser-mode host (same origin, authenticated by the host's session cookie). It also
 * notices when that host has gone (host-presence.ts): its event stream drops and a look at the
 * host finds nobody, or a later process that refuses this tab.
 */
import type { ChannelName, Envelope, EventName, RetakeBridge } from '../../shared/ipc-contract'
import { BridgeError } from './bridge-error'
import { isRefusal, presenceAfter, setHostPresence, type HostProbe } from './host-presence'

const rpcInit = (input: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-retake-rpc': '1' },
  body: JSON.stringify(input ?? {}),
  credentials: 'same-origin',
})

export function createHttpBridge(base = ''): RetakeBridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  let source: EventSource | null = null
  let probing = false

  /** One look at the host (its cheapest channel); the stream is reopened if the browser gave up on it. */
  async function probe() {
    if (probing) return
    probing = true
    let found: HostProbe
    try {
      const res = await fetch(`${base}/api/rpc/app.info`, rpcInit({}))
      found = isRefusal(res.status) ? 'refused' : 'up'
    } catch {
      found = 'unreachable'
    } finally {
      probing = false
    }
    setHostPresence(presenceAfter(found))
    if (found === 'up' && source?.readyState === 2) {
      source = null
      ensureEventSource()
    }
  }

  function ensureEventSource() {
    // No EventSource (a non-browser environment): calls still work, pushes are simply not received.
    if (source || typeof EventSource === 'undefined') return
    const s = new EventSource(`${base}/api/events`)
    source = s
    s.onopen = () => setHostPresence('up')
    s.onmessage = (ev) => {
      try {
        const { event, payload } = JSON.parse(ev.data) as { event: string; payload: unknown }
        listeners.get(event)?.forEach((l) => l(payload))
      } catch {
        // A malformed frame is dropped; the next status push carries the full state again.
      }
    }
    // The browser retries a dropped stream by itself (each failed retry lands here again), so
    // every error is one look at the host: is it still there?
    s.onerror = () => void probe()
  }

  return {
    async invoke(channel: ChannelName, input: unknown) {
      let res: Response
      try {
        res = await fetch(`${base}/api/rpc/${encodeURIComponent(channel)}`, rpcInit(input))
      } catch {
        void probe()
        throw new BridgeError('unavailable', 'Retake is not answering: it may have stopped running')
      }
      if (isRefusal(res.status)) setHostPresence('gone')
      let envelope: Envelope<unknown>
      try {
        envelope = (await res.json()) as Envelope<unknown>
      } catch {
        throw new BridgeError('internal', `Retake answered without a result (HTTP ${res.status})`)
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
