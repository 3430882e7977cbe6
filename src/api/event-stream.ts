/**
 * The opencode event stream of one directory, kept alive. EventSource reconnects by itself after a
 * dropped connection, but gives up for good on an HTTP error (e.g. the proxy's 502 while the server
 * restarts) and cannot notice a silently dead socket; this wrapper handles both: it reopens with
 * backoff, and a missing heartbeat (opencode sends one every ~10 s) counts as a dead connection.
 */
import type { OpencodeEvent } from './types'

/** Parses one `data:` frame; null for anything that is not `{type, properties}`. */
export function parseEventFrame(data: string): OpencodeEvent | null {
  try {
    const v = JSON.parse(data) as { type?: unknown; properties?: unknown }
    if (!v || typeof v.type !== 'string') return null
    return { ...v, properties: v.properties ?? {} } as OpencodeEvent
  } catch {
    return null
  }
}

export interface StreamHandlers {
  onEvents(events: OpencodeEvent[]): void
  /** `reconnected` is true for every open after the first: cached state may have missed events. */
  onOpen(reconnected: boolean): void
  onDown(): void
}

export interface StreamDeps {
  createSource(url: string): EventSource
  /** Batches a flush to the next frame so a burst of deltas causes one render. */
  schedule(fn: () => void): void
  setTimer(fn: () => void, ms: number): unknown
  clearTimer(handle: unknown): void
}

const browserDeps: StreamDeps = {
  createSource: (url) => new EventSource(url),
  schedule: (fn) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => fn()) : setTimeout(fn, 16)),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
}

export const HEARTBEAT_TIMEOUT_MS = 30_000

/** Events queued and handed over once per scheduled frame, so a burst of deltas causes one render; nothing after close. */
function eventBatcher(deps: StreamDeps, onEvents: (events: OpencodeEvent[]) => void) {
  let queue: OpencodeEvent[] = []
  let flushScheduled = false
  let closed = false
  const flush = () => {
    flushScheduled = false
    if (closed || queue.length === 0) return
    const batch = queue
    queue = []
    onEvents(batch)
  }
  return {
    push(event: OpencodeEvent) {
      queue.push(event)
      if (!flushScheduled) {
        flushScheduled = true
        deps.schedule(flush)
      }
    },
    close() {
      closed = true
      flush()
    },
  }
}

/** Calls `onSilent` when HEARTBEAT_TIMEOUT_MS pass without an `arm()` (every open and every frame arms it again). */
function heartbeatWatchdog(deps: StreamDeps, onSilent: () => void) {
  let watchdog: unknown = null
  return {
    arm() {
      if (watchdog !== null) deps.clearTimer(watchdog)
      watchdog = deps.setTimer(onSilent, HEARTBEAT_TIMEOUT_MS)
    },
    stop() {
      if (watchdog !== null) deps.clearTimer(watchdog)
    },
  }
}

export function connectEventStream(url: string, handlers: StreamHandlers, deps: StreamDeps = browserDeps): () => void {
  let source: EventSource | null = null
  let opened = false
  let closed = false
  let attempt = 0
  let retryTimer: unknown = null
  const batcher = eventBatcher(deps, handlers.onEvents)
  const watchdog = heartbeatWatchdog(deps, () => restart())

  const restart = () => {
    if (closed) return
    source?.close()
    source = null
    handlers.onDown()
    const delay = Math.min(10_000, 500 * 2 ** attempt)
    attempt++
    retryTimer = deps.setTimer(open, delay)
  }

  function open() {
    if (closed) return
    const s = deps.createSource(url)
    source = s
    s.onopen = () => {
      attempt = 0
      handlers.onOpen(opened)
      opened = true
      watchdog.arm()
    }
    s.onmessage = (ev: MessageEvent) => {
      watchdog.arm()
      const event = parseEventFrame(String(ev.data))
      if (!event) return
      // The host renewed a subscription that had died (core/server/event-relay.ts): events
      // may have been missed, so the renderer refetches as after a reconnect.
      if ((event.type as string) === 'retake.resync') return handlers.onOpen(true)
      batcher.push(event)
    }
    s.onerror = () => {
      // CONNECTING = the browser retries by itself; CLOSED = it gave up, so we retry.
      if (s.readyState === 2) restart()
      else handlers.onDown()
    }
  }

  open()
  return () => {
    closed = true
    batcher.close()
    source?.close()
    watchdog.stop()
    if (retryTimer !== null) deps.clearTimer(retryTimer)
  }
}
