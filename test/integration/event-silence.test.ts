/**
 * Opencode's event stream through Retake's host, against the real server (1.18.33, which beats
 * every 10 s). An idle stream is renewed after 5 s of silence without a false alarm (no resync, no
 * event twice); a server whose events stop (the process frozen, its connections left open) is
 * detected within 5 s + the 2 s probe and the stream ends, so the renderer reconnects and refetches.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hostFetch } from '../support/host-fetch'
import { LATE_MS, PROBE_MS, SILENCE_MS } from '../../core/server/event-relay'
import { startCoreApp, type CoreApp } from '../support/core-fixture'

let app: CoreApp | undefined
let frozen: number | undefined
afterEach(async () => {
  if (frozen) process.kill(frozen, 'SIGCONT')
  frozen = undefined
  await app?.stop()
  app = undefined
})

interface Frame {
  at: number
  id?: string
  type: string
}

/** Reads the host's `/opencode/event`; `until` resolves when a predicate on the frames holds or the stream ends. */
async function openStream(a: CoreApp) {
  const abort = new AbortController()
  const res = await hostFetch(`${a.host.origin}/opencode/event?directory=${encodeURIComponent(a.project)}`, {
    headers: { cookie: a.cookie },
    signal: abort.signal,
  })
  expect(res.status).toBe(200)
  const frames: Frame[] = []
  let ended: number | null = null
  const waiters: (() => void)[] = []
  void (async () => {
    const decoder = new TextDecoder()
    let buf = ''
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true })
        for (let at = buf.indexOf('\n\n'); at !== -1; at = buf.indexOf('\n\n')) {
          const data = buf.slice(0, at).replace(/^data: /, '')
          buf = buf.slice(at + 2)
          const v = JSON.parse(data) as { id?: string; type: string }
          frames.push({ at: Date.now(), id: v.id, type: v.type })
          waiters.forEach((w) => w())
        }
      }
    } catch {
      /* aborted */
    }
    ended = Date.now()
    waiters.forEach((w) => w())
  })()
  const until = (ok: () => boolean, ms: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; frames: ${JSON.stringify(frames)} ended: ${ended}`)), ms)
      const check = () => {
        if (!ok()) return
        clearTimeout(timer)
        resolve()
      }
      waiters.push(check)
      check()
    })
  return { frames, ended: () => ended, until, close: () => abort.abort() }
}

describe('opencode event stream through the host', () => {
  it('an idle stream is renewed after 5 s of silence, with no resync and no event twice', async () => {
    app = await startCoreApp()
    const s = await openStream(app)
    await s.until(() => s.frames.length > 0, 10_000)
    const start = s.frames[0]!.at
    // Past the first subscription's heartbeat (10 s) and the renewal's probation (11 s).
    await s.until(() => s.frames.some((f) => f.at - start > LATE_MS + 1_000), 30_000)
    const types = s.frames.map((f) => f.type)
    expect(types.filter((t) => t === 'server.connected').length).toBeGreaterThanOrEqual(2)
    expect(types).not.toContain('retake.resync')
    const ids = s.frames.map((f) => f.id)
    expect(new Set(ids).size).toBe(ids.length)
    // Never silent for longer than the relay allows (plus scheduling slack).
    for (let i = 1; i < s.frames.length; i++) expect(s.frames[i]!.at - s.frames[i - 1]!.at).toBeLessThan(SILENCE_MS + 1_000)
    expect(s.ended()).toBeNull()
    s.close()
  })

  it('a server whose events stop is detected within 5 s plus the probe, and the stream ends', async () => {
    app = await startCoreApp()
    const s = await openStream(app)
    await s.until(() => s.frames.length > 0, 10_000)
    const pid = (app.core.connection as { pid?: number }).pid!
    expect(pid).toBeGreaterThan(0)
    process.kill(pid, 'SIGSTOP')
    frozen = pid
    const stoppedAt = Date.now()
    await s.until(() => s.ended() !== null, 20_000)
    expect(s.ended()! - stoppedAt).toBeLessThan(SILENCE_MS + PROBE_MS + 1_000)
  })
})
