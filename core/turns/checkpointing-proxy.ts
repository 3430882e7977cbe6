/**
 * The proxy with checkpoints: a prompt on its way to opencode first records the workspace (keyed by
 * session + user message, the message id added when the client sent none). If recording fails the
 * prompt is refused with a clear error; the renderer may then resend with
 * `x-retake-checkpoint: skip` after telling the user. A stop first rejects the permissions its turn
 * waits on. Both are the window's road to turn-checkpoints.ts, which the host's own prompts call directly.
 */
import { Readable } from 'node:stream'
import type { OpencodeConnection } from '../server/connection'
import { proxyToOpencode, type ProxyRequest, type ProxyResponse } from '../server/opencode-proxy'
import { ensureMessageId, matchPromptRequest } from './prompt-intercept'
import { matchAbortRequest } from './permissions-on-stop'
import type { TurnCheckpoints } from './turn-checkpoints'

const MAX_PROMPT_BYTES = 64 * 1024 * 1024

export interface CheckpointingProxy {
  proxy(req: ProxyRequest): Promise<ProxyResponse>
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

export function createCheckpointingProxy(conn: () => OpencodeConnection, turns: TurnCheckpoints): CheckpointingProxy {
  return {
    async proxy(req) {
      const abort = matchAbortRequest(req.method, req.path, req.headers as Record<string, string | undefined>)
      if (abort) {
        await turns.denyPermissionsOf(abort.directory, abort.sessionID)
        const res = await proxyToOpencode(conn(), req)
        // Again once it stopped: a request a parallel tool call asked while the stop was on its way.
        await turns.denyPermissionsOf(abort.directory, abort.sessionID)
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
      if (req.headers['x-retake-checkpoint'] !== 'skip') {
        try {
          await turns.before(prompt.directory, prompt.sessionID, named.messageID)
        } catch (err) {
          return errorResponse(409, 'CheckpointFailed', (err as Error).message)
        }
      }
      const body = Buffer.from(named.body)
      const headers = { ...req.headers, 'content-length': String(body.length), 'content-type': 'application/json' }
      return proxyToOpencode(conn(), { ...req, headers, body: Readable.from([body]) })
    },
  }
}
