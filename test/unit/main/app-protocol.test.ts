import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createAppProtocolHandler } from '../../../electron/desktop/app-protocol'
import type { ProxyRequest } from '../../../core/server/opencode-proxy'

/** A core whose proxy records what reached it (what would have gone on to opencode). */
function recordingCore() {
  const forwarded: ProxyRequest[] = []
  const core = {
    proxy: async (req: ProxyRequest) => {
      forwarded.push(req)
      return { status: 200, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from('[]')]) }
    },
  }
  return { core, forwarded }
}

const URL_OF_SESSIONS = `app://retake/opencode/session?directory=${encodeURIComponent('/home/u/victim')}`

describe('desktop app:// handler: only the renderer’s own calls reach opencode', () => {
  it('an image, media, frame or navigation request for /opencode is refused before anything is forwarded', async () => {
    const { core, forwarded } = recordingCore()
    const handle = createAppProtocolHandler(core, '/nonexistent')
    for (const dest of ['image', 'video', 'audio', 'iframe', 'document', 'script', 'style']) {
      const res = await handle(new Request(URL_OF_SESSIONS, { headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': dest } }))
      expect(res.status, dest).toBe(403)
      expect(((await res.json()) as { data: { message: string } }).data.message, dest).toContain(dest)
    }
    expect(forwarded).toEqual([])
  })

  it('the renderer’s fetch and EventSource calls (destination empty) are forwarded', async () => {
    const { core, forwarded } = recordingCore()
    const handle = createAppProtocolHandler(core, '/nonexistent')
    const res = await handle(new Request(URL_OF_SESSIONS, { headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' } }))
    expect(res.status).toBe(200)
    expect((await handle(new Request(URL_OF_SESSIONS))).status).toBe(200)
    expect(forwarded.map((r) => r.path)).toEqual([`/session?directory=${encodeURIComponent('/home/u/victim')}`, `/session?directory=${encodeURIComponent('/home/u/victim')}`])
  })
})
