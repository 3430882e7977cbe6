/**
 * The main process's own subscription to a project's opencode event stream, so turns are sealed when
 * their session goes idle even if no window is open. Reconnects with backoff; frames are
 * `data: {"type","properties"}` lines.
 */
import { request as httpRequest, type ClientRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { OpencodeConnection } from './connection'
import { backoffDelay } from './server-logic'

export interface OpencodeEventFrame {
  type: string
  properties: Record<string, unknown>
}

/** Splits an SSE byte stream into JSON frames; returns the unparsed rest. */
export function parseSseChunk(buffer: string, onFrame: (frame: OpencodeEventFrame) => void): string {
  let rest = buffer
  let idx: number
  while ((idx = rest.indexOf('\n\n')) >= 0) {
    const block = rest.slice(0, idx)
    rest = rest.slice(idx + 2)
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n')
    if (!data) continue
    try {
      const frame = JSON.parse(data) as OpencodeEventFrame
      if (frame && typeof frame.type === 'string') onFrame(frame)
    } catch {
      // A frame that is not JSON is not ours to act on.
    }
  }
  return rest
}

export function watchOpencodeEvents(conn: () => OpencodeConnection, directory: string, onFrame: (frame: OpencodeEventFrame) => void): () => void {
  let stopped = false
  let req: ClientRequest | null = null
  let attempt = 0
  let timer: NodeJS.Timeout | null = null

  const schedule = () => {
    // 'error' and 'close' can both fire for one failed connection: reconnect once.
    if (stopped || timer) return
    attempt += 1
    timer = setTimeout(connect, backoffDelay(attempt, 250, 5_000))
  }

  function connect() {
    timer = null
    req = null
    const c = conn()
    if (stopped) return
    if (c.status.state !== 'ready' || !c.url) return schedule()
    const url = new URL(`/event?directory=${encodeURIComponent(directory)}`, c.url)
    req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { headers: { authorization: c.authorization(), accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume()
        return schedule()
      }
      attempt = 0
      let buffer = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        buffer = parseSseChunk(buffer + chunk, onFrame)
      })
      res.on('close', () => schedule())
    })
    req.on('error', () => schedule())
    req.end()
  }

  connect()
  return () => {
    stopped = true
    if (timer) clearTimeout(timer)
    req?.destroy()
  }
}
