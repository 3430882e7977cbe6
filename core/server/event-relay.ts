/**
 * Opencode's event stream as the host forwards it, kept alive from this side.
 *
 * Why here and not in the renderer: opencode 1.18.33 sends `server.heartbeat` only every 10 s (per
 * connection, timed from its connect), so no client can tell a stream that died with its TCP
 * connection open from an idle one in less than 10 s by listening alone. The host can do better:
 * after SILENCE_MS without any frame it subscribes again (a new subscription answers at once with
 * `server.connected`, or the server's events are down). Both subscriptions are forwarded, merged:
 * opencode gives each published event one id for all subscribers, so an event both deliver is
 * passed on once. So live events flow again at most SILENCE_MS after a stream went silent.
 *
 * The old subscription is then on probation: a frame from it (its heartbeat is due within 10 s)
 * proves it was alive, nothing was missed, and it is closed quietly. If its heartbeat is overdue
 * (LATE_MS since its last frame) it was dead: events published while it was may be lost, so a
 * `retake.resync` frame tells the renderer to refetch what it shows. A server that does not answer
 * the new subscription within PROBE_MS ends the stream: the renderer reconnects and refetches.
 */
import { PassThrough, type Readable } from 'node:stream'

export const SILENCE_MS = 5_000
export const PROBE_MS = 2_000
export const LATE_MS = 11_000
export const RESYNC_FRAME = 'data: {"type":"retake.resync","properties":{}}\n\n'
const SEEN_IDS = 512

export interface RelayDeps {
  /** A fresh upstream subscription's body, or null when the server refuses it. */
  reopen(): Promise<Readable | null>
  setTimer(fn: () => void, ms: number): unknown
  clearTimer(handle: unknown): void
  now(): number
}

export const realTimers = {
  setTimer: (fn: () => void, ms: number): unknown => setTimeout(fn, ms),
  clearTimer: (h: unknown): void => clearTimeout(h as ReturnType<typeof setTimeout>),
  now: (): number => Date.now(),
}

interface Source {
  body: Readable
  buf: string
  lastFrameAt: number
  /** Replaced by a newer subscription: closed on its next frame, or as dead when it stays silent. */
  probation: unknown | null
}

/** The event id of one SSE frame (`data: {"id":…}`), if it has one. */
function frameId(frame: string): string | null {
  const data = frame.split('\n').find((l) => l.startsWith('data:'))
  if (!data) return null
  try {
    const id = (JSON.parse(data.slice(5)) as { id?: unknown }).id
    return typeof id === 'string' ? id : null
  } catch {
    return null
  }
}

export function relayEvents(first: Readable, deps: RelayDeps): Readable {
  const out = new PassThrough()
  const sources = new Set<Source>()
  const seen = new Set<string>()
  let silence: unknown = null
  let done = false

  const finish = () => {
    if (done) return
    done = true
    if (silence !== null) deps.clearTimer(silence)
    for (const s of sources) drop(s)
    out.end()
  }

  const drop = (s: Source) => {
    if (s.probation !== null) deps.clearTimer(s.probation)
    sources.delete(s)
    s.body.destroy()
  }

  const armSilence = () => {
    if (silence !== null) deps.clearTimer(silence)
    silence = deps.setTimer(renew, SILENCE_MS)
  }

  const forward = (frame: string) => {
    const id = frameId(frame)
    if (id !== null) {
      if (seen.has(id)) return
      seen.add(id)
      // Ids only repeat across the few subscriptions open together: the recent ones suffice.
      if (seen.size > SEEN_IDS) seen.delete(seen.values().next().value as string)
    }
    out.write(frame + '\n\n')
  }

  const add = (body: Readable) => {
    const s: Source = { body, buf: '', lastFrameAt: deps.now(), probation: null }
    sources.add(s)
    body.setEncoding('utf8')
    body.on('data', (chunk: string) => {
      if (done) return
      s.buf += chunk
      for (let at = s.buf.indexOf('\n\n'); at !== -1; at = s.buf.indexOf('\n\n')) {
        const frame = s.buf.slice(0, at)
        s.buf = s.buf.slice(at + 2)
        s.lastFrameAt = deps.now()
        armSilence()
        forward(frame)
        // Alive after all: the newer subscription carries on alone, nothing was missed.
        if (s.probation !== null) return drop(s)
      }
    })
    const gone = () => {
      if (!sources.has(s)) return
      drop(s)
      if (sources.size === 0) finish()
    }
    body.on('end', gone)
    body.on('error', gone)
    body.on('close', gone)
  }

  const putOnProbation = (s: Source) => {
    if (s.probation !== null) return
    const wait = Math.max(0, s.lastFrameAt + LATE_MS - deps.now())
    s.probation = deps.setTimer(() => {
      if (done || !sources.has(s)) return
      drop(s)
      out.write(RESYNC_FRAME)
    }, wait)
  }

  async function renew() {
    silence = null
    if (done) return
    const old = [...sources]
    let timedOut = false
    const timer = deps.setTimer(() => {
      timedOut = true
      finish()
    }, PROBE_MS)
    const body = await deps.reopen().catch(() => null)
    if (done || timedOut) {
      body?.destroy()
      return
    }
    if (!body) {
      deps.clearTimer(timer)
      return finish()
    }
    add(body)
    // Answered when its first frame (`server.connected`) arrives; until then the probe clock runs.
    body.once('data', () => deps.clearTimer(timer))
    for (const s of old) putOnProbation(s)
    armSilence()
  }

  add(first)
  armSilence()
  out.on('close', finish)
  return out
}
