/**
 * A fake LLM provider for integration and e2e tests: the real opencode server talks to it through
 * its bundled `@ai-sdk/openai-compatible` (POST …/v1/chat/completions) and `@ai-sdk/anthropic`
 * (POST …/anthropic/v1/messages) adapters. Replies follow keywords in the last user message (so a
 * test typing into the UI can drive it), scripted replies, or per-model overrides. Every request is
 * logged so tests can assert what reached the model. Usage: test/support/README.md.
 */
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { FakeApi, FakeReply, FakeRequest, FakeRequestKind, ScriptedReply } from './fake-llm-impl/types'
import { classify, describeReply, normalise, planFromKeywords } from './fake-llm-impl/plan'
import { writeOpenAi } from './fake-llm-impl/openai'
import { writeAnthropic } from './fake-llm-impl/anthropic'
import { sendJson } from './fake-llm-impl/sse'

export type { FakeApi, FakeReply, FakeRequest, FakeRequestKind, FakeToolCall, ScriptedReply } from './fake-llm-impl/types'

export interface FakeLlmOptions {
  /** Port to listen on; 0 (default) picks a free one. Always bound to 127.0.0.1. */
  port?: number
  /** Replies pinned to a model id (e.g. `{ echo: { kind: 'error', status: 400 } }`), for every request to it. */
  modelBehaviour?: Record<string, FakeReply>
  /** Text answered to opencode's title-generation calls (default `Fake title`). */
  titleText?: string
  /**
   * `retry-after-ms` for keyword failures (FAIL429/FAIL500), so opencode's 5 automatic retries take
   * milliseconds instead of ~72 s. Unset by default: the real backoff.
   */
  retryAfterMs?: number
}

export interface FakeLlm {
  /** OpenAI-compatible base URL, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string
  /** Anthropic base URL (`@ai-sdk/anthropic` appends `/messages`), e.g. `http://127.0.0.1:PORT/anthropic/v1`. */
  readonly anthropicBaseUrl: string
  readonly port: number
  /** Every request received, in arrival order (cleared by `reset()`). */
  readonly requests: readonly FakeRequest[]
  /** Real agent turns only: title generation and other side calls are left out. */
  chatRequests(model?: string): FakeRequest[]
  /** Queue replies for the next chat requests; they take precedence over keywords and model behaviour. */
  script(...replies: ScriptedReply[]): void
  /** Make every request to `model` fail with `status` (null clears it). */
  failModel(model: string, status: number | null): void
  /** Pin (or with undefined, unpin) a reply for every request to `model`. */
  setModelBehaviour(model: string, reply: FakeReply | undefined): void
  /** Resolves with the first logged request (past or future) matching `predicate`. */
  waitForRequest(predicate: (r: FakeRequest) => boolean, timeoutMs?: number): Promise<FakeRequest>
  /** Clears the log (seq restarts at 1), the script queue and runtime model behaviours (back to `opts.modelBehaviour`). */
  reset(): void
  /** Stops listening and destroys open sockets (hanging and streaming requests included). */
  close(): Promise<void>
}

type Waiter = { predicate: (r: FakeRequest) => boolean; resolve: (r: FakeRequest) => void }

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (b: Buffer) => parts.push(b))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

function apiOf(path: string): FakeApi | undefined {
  if (path.endsWith('/chat/completions')) return 'openai'
  if (path.endsWith('/messages')) return 'anthropic'
  return undefined
}

export async function startFakeLlm(opts: FakeLlmOptions = {}): Promise<FakeLlm> {
  const requests: FakeRequest[] = []
  let queue: ScriptedReply[] = []
  let behaviour = new Map<string, FakeReply>(Object.entries(opts.modelBehaviour ?? {}))
  let waiters: Waiter[] = []
  const sockets = new Set<Socket>()
  let seq = 0

  function takeScripted(model: string): FakeReply | undefined {
    const i = queue.findIndex((r) => r.model === undefined || r.model === model)
    if (i < 0) return undefined
    const [entry] = queue.splice(i, 1)
    const { model: _ignored, ...reply } = entry!
    return reply as FakeReply
  }

  function choose(kind: FakeRequestKind, model: string, plan: () => FakeReply): FakeReply {
    // Scripts are consumed by real turns only: title calls race with the first turn.
    const scripted = kind === 'chat' ? takeScripted(model) : undefined
    if (scripted) return scripted
    const pinned = behaviour.get(model)
    if (pinned) return pinned
    if (kind === 'title') return { kind: 'text', text: opts.titleText ?? 'Fake title', chunks: 1 }
    // Summary/compaction prompts quote the whole conversation, keywords included: never obey them.
    if (kind === 'other') return { kind: 'text', text: 'Fake summary of the conversation.', chunks: 2 }
    return plan()
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const raw = req.method === 'POST' ? await readBody(req) : ''
    let body: any
    try {
      body = raw ? JSON.parse(raw) : undefined
    } catch {
      body = undefined
    }
    const api = apiOf(path)
    const conv = normalise(api ?? 'openai', body)
    const model = String(body?.model ?? '')
    const kind: FakeRequestKind = api ? classify(conv) : 'other'
    const reply: FakeReply | undefined = api ? choose(kind, model, () => planFromKeywords(conv, opts.retryAfterMs)) : undefined
    const entry: FakeRequest = {
      seq: ++seq,
      api: api ?? 'openai',
      method: req.method ?? 'GET',
      path,
      model,
      body,
      headers: req.headers,
      time: Date.now(),
      kind,
      toolNames: conv.toolNames,
      reply: reply ? describeReply(reply) : 'not-found',
      clientAborted: false,
      lastUserText: () => conv.lastUserText,
      lastUserContent: () => conv.lastUserContent,
      systemText: () => conv.system,
    }
    requests.push(entry)
    res.on('close', () => {
      entry.endedAt = Date.now()
      // A drop is the fake's own doing; anything else unfinished means the client went away.
      if (!res.writableFinished && reply?.kind !== 'drop') entry.clientAborted = true
    })
    waiters = waiters.filter((w) => (w.predicate(entry) ? (w.resolve(entry), false) : true))

    if (!reply) {
      if (req.method === 'GET' && path.endsWith('/models'))
        return sendJson(res, 200, { object: 'list', data: ['echo', 'echo-2', 'echo-noimg'].map((id) => ({ id, object: 'model' })) })
      return sendJson(res, 404, { error: { message: `fake-llm: no route for ${req.method} ${path}`, type: 'not_found' } })
    }
    if (api === 'anthropic') await writeAnthropic(req, res, body, reply)
    else await writeOpenAi(req, res, body, reply)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake-llm crashed: ${String(err)}` } })
      else res.destroy()
    })
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`

  return {
    baseUrl: `${origin}/v1`,
    anthropicBaseUrl: `${origin}/anthropic/v1`,
    port,
    requests,
    chatRequests: (model) => requests.filter((r) => r.kind === 'chat' && (model === undefined || r.model === model)),
    script: (...replies) => void queue.push(...replies),
    failModel(model, status) {
      if (status === null) behaviour.delete(model)
      else behaviour.set(model, { kind: 'error', status, message: `Injected failure for model ${model}: HTTP ${status}` })
    },
    setModelBehaviour(model, reply) {
      if (reply) behaviour.set(model, reply)
      else behaviour.delete(model)
    },
    waitForRequest(predicate, timeoutMs = 10_000) {
      const found = requests.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter)
          reject(new Error(`fake-llm: no matching request within ${timeoutMs} ms (${requests.length} logged)`))
        }, timeoutMs)
        const waiter: Waiter = { predicate, resolve: (r) => (clearTimeout(timer), resolve(r)) }
        waiters.push(waiter)
      })
    },
    reset() {
      // seq restarts too, so `seq === index + 1` and `requests.length` works as a log position.
      seq = 0
      requests.length = 0
      queue = []
      behaviour = new Map(Object.entries(opts.modelBehaviour ?? {}))
    },
    close() {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
