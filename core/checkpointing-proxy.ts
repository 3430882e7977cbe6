/**
 * The proxy with checkpoints: a prompt on its way to opencode first records the workspace (keyed by
 * session + user message, the message id added when the client sent none). If recording fails the
 * prompt is refused with a clear error; the renderer may then resend with
 * `x-retake-checkpoint: skip` after telling the user. Turns are sealed when the session goes idle,
 * seen on the main process's own event subscription for that folder. A stop first rejects the
 * permissions its turn waits on (permissions-on-stop.ts).
 */
import { Readable } from 'node:stream'
import type { CheckpointService } from './checkpoint-service'
import type { OpencodeConnection } from './server/connection'
import { watchOpencodeEvents } from './server/event-watcher'
import { proxyToOpencode, type ProxyRequest, type ProxyResponse } from './server/opencode-proxy'
import { ensureMessageId, matchPromptRequest } from './prompt-intercept'
import { denyPending, matchAbortRequest } from './permissions-on-stop'

const MAX_PROMPT_BYTES = 64 * 1024 * 1024

export interface CheckpointingProxy {
  proxy(req: ProxyRequest): Promise<ProxyResponse>
  stop(): void
}

function errorResponse(status: number, name: string, message: string): ProxyResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify({ name, data: { message } }))]) }
}

async function readAll(body: Readable | null | undefined, limit: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string)
    size += b.length
    if (size > limit) throw new Error(`prompt body over ${limit} bytes`)
    chunks.push(b)
  }
  return Buffer.concat(chunks)
}

export function createCheckpointingProxy(conn: () => OpencodeConnection, service: CheckpointService, log: (l: string) => void): CheckpointingProxy {
  const watchers = new Map<string, () => void>()

  function watch(directory: string) {
    if (watchers.has(directory)) return
    const stop = watchOpencodeEvents(conn, directory, (frame) => {
      if (frame.type !== 'session.idle') return
      const sessionID = frame.properties.sessionID
      if (typeof sessionID !== 'string') return
      service.sealSession(directory, sessionID).catch((err) => log(`[checkpoints] seal ${sessionID} failed: ${(err as Error).message}`))
    })
    watchers.set(directory, stop)
  }

  return {
    async proxy(req) {
      const abort = matchAbortRequest(req.method, req.path, req.headers as Record<string, string | undefined>)
      if (abort) {
        // A failure here is logged and the stop goes on: the turn must stop whatever else fails.
        const deny = () =>
          denyPending((r) => proxyToOpencode(conn(), r), abort, log).catch((err) => log(`[permissions] at the stop of ${abort.sessionID}: ${(err as Error).message}`))
        await deny()
        const res = await proxyToOpencode(conn(), req)
        // Again once it stopped: a request a parallel tool call asked while the stop was on its way.
        await deny()
        return res
      }
      const prompt = matchPromptRequest(req.method, req.path, req.headers as Record<string, string | undefined>)
      if (!prompt || !prompt.directory) return proxyToOpencode(conn(), req)
      let raw: Buffer
      try {
        raw = await readAll(req.body, MAX_PROMPT_BYTES)
      } catch (err) {
        return errorResponse(413, 'BadRequest', (err as Error).message)
      }
      const named = ensureMessageId(raw.toString('utf8'))
      if (!named) return proxyToOpencode(conn(), { ...req, body: Readable.from([raw]) })
      const skip = req.headers['x-retake-checkpoint'] === 'skip'
      if (!skip) {
        watch(prompt.directory)
        try {
          await service.capture(prompt.directory, prompt.sessionID, named.messageID)
        } catch (err) {
          log(`[checkpoints] capture before ${prompt.sessionID}/${named.messageID} failed: ${(err as Error).stack ?? err}`)
          return errorResponse(409, 'CheckpointFailed', `Retake could not record a checkpoint of the folder before this turn: ${(err as Error).message}`)
        }
      }
      const body = Buffer.from(named.body)
      const headers = { ...req.headers, 'content-length': String(body.length), 'content-type': 'application/json' }
      return proxyToOpencode(conn(), { ...req, headers, body: Readable.from([body]) })
    },
    stop() {
      for (const stop of watchers.values()) stop()
      watchers.clear()
    },
  }
}
