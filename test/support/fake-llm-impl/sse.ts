/** Small helpers shared by the OpenAI and Anthropic stream writers. */
import type { IncomingMessage, ServerResponse } from 'node:http'

/** True once the client went away; writers stop instead of writing into a dead socket. */
export function gone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded || res.socket?.destroyed === true
}

/** Waits `ms` (the scripted pace), resolving early if the response is closed. */
/** Waits for `until` (a test's gate) unless the client goes away first. */
export function holdFor(res: ServerResponse, until: Promise<unknown> | undefined): Promise<void> {
  if (!until) return Promise.resolve()
  return new Promise((done) => {
    const finish = (): void => {
      res.off('close', finish)
      done()
    }
    res.on('close', finish)
    until.then(finish, finish)
  })
}

export function pause(res: ServerResponse, ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve()
  return new Promise((done) => {
    const t = setTimeout(finish, ms)
    function finish() {
      clearTimeout(t)
      res.off('close', finish)
      done()
    }
    res.on('close', finish)
  })
}

export function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  res.flushHeaders()
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

/** Destroys the connection mid-response: the client sees a reset / terminated stream. */
export function drop(req: IncomingMessage, res: ServerResponse): void {
  res.socket?.destroy()
  req.socket.destroy()
}

/** Keeps the request open until the client disconnects (HANG). */
export function hang(res: ServerResponse): Promise<void> {
  return new Promise((done) => res.on('close', () => done()))
}

export function retryHeaders(retryAfterMs: number | undefined): Record<string, string> {
  return retryAfterMs === undefined ? {} : { 'retry-after-ms': String(retryAfterMs) }
}

export function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4))
}
