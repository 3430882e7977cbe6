/** Shared types of the fake LLM provider (see test/support/README.md). */

/** One tool call the fake asks opencode to run; `args` must match opencode's tool schema. */
export interface FakeToolCall {
  name: string
  args: Record<string, unknown>
}

/**
 * What the fake answers to one model request. The keyword parser produces these, and tests can
 * queue them directly with `script(...)` or pin them to a model with `modelBehaviour`.
 */
export type FakeReply =
  /**
   * Streamed text, optionally preceded by reasoning deltas; `chunkDelayMs` paces the chunks.
   * `holdUntil` (in-process tests only) keeps the turn streaming until it settles, before the last chunk.
   */
  | { kind: 'text'; text: string; reasoning?: string; chunks?: number; chunkDelayMs?: number; holdUntil?: Promise<unknown> }
  /** One step with one or more tool calls (finish reason tool_calls / tool_use). */
  | { kind: 'tool'; calls: FakeToolCall[]; text?: string }
  /**
   * An HTTP error with a provider-style JSON body. `retryAfterMs` adds a `retry-after-ms` header,
   * which opencode honours for its retry delay (default backoff is ~2 s, 4 s, 9 s, 20 s, 35 s).
   */
  | { kind: 'error'; status: number; message?: string; retryAfterMs?: number }
  /** Headers and `afterChunks` text chunks, then the socket is destroyed (a dropped stream). */
  | { kind: 'drop'; text?: string; afterChunks?: number }
  /** Accept the request and never answer until the client goes away. */
  | { kind: 'hang' }

/** A scripted reply; with `model` it is only used for requests to that model id. */
export type ScriptedReply = FakeReply & { model?: string }

export type FakeApi = 'openai' | 'anthropic'

/**
 * `chat` is a real agent turn; `title` is opencode's session-title side call; `other` covers any
 * other side call (summaries, compaction) the fake could not classify as a turn.
 */
export type FakeRequestKind = 'chat' | 'title' | 'other'

/** One logged request, as it reached the fake. */
export interface FakeRequest {
  /** 1-based position in the log (`requests[seq - 1]`); restarts after `reset()`. */
  seq: number
  api: FakeApi
  method: string
  path: string
  model: string
  /** Parsed JSON body (undefined if the body was not JSON). */
  body: any
  headers: Record<string, string | string[] | undefined>
  time: number
  kind: FakeRequestKind
  /** Names of the tools offered to the model in this request. */
  toolNames: string[]
  /** True once the client closed the connection before the reply was complete (e.g. Stop / abort). */
  clientAborted: boolean
  /** When the response finished or the connection closed (undefined while still open). */
  endedAt?: number
  /** Short description of what the fake answered (e.g. `text`, `tool:write`, `error:400`). */
  reply: string
  /**
   * What the user typed in the last user message: its text parts minus opencode's synthetic
   * attachment parts; the last typed part if the adapter merged several user messages.
   */
  lastUserText(): string
  /** Raw `content` of the last user message (string or parts: text, image_url, file, image, …). */
  lastUserContent(): unknown
  /** The system prompt text (all system parts joined). */
  systemText(): string
}
