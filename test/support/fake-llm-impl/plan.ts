/**
 * Turns a request body (OpenAI chat or Anthropic messages) into a `FakeReply` following the
 * keyword rules in test/support/README.md. Both APIs are first normalised into a `Conversation`
 * so the keyword logic exists once.
 */
import { isAbsolute, resolve } from 'node:path'
import type { FakeApi, FakeReply, FakeToolCall } from './types'

export interface Conversation {
  system: string
  /** What the user typed in the last user message (see `typedText`). */
  lastUserText: string
  /** Raw `content` of the last user message that carried text. */
  lastUserContent: unknown
  /** Tool calls the assistant made after the last user text message, in order. */
  toolCallsSinceUser: string[]
  /** Tool results that came back after the last user text message. */
  toolResultsSinceUser: number
  toolNames: string[]
}

type Block = { type?: string; text?: string; name?: string }

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return (content as Block[])
    .filter((b) => b?.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('\n')
}

/** Text parts opencode adds for attachments (protocol reference §6), not typed by the user. */
const READ_CALL = /^Called the Read tool with the following input:/
const SYNTHETIC = /^(Read tool failed|ERROR: Cannot read )/

/**
 * The user's typed text in a user message: text parts minus opencode's synthetic attachment parts
 * ("Called the Read tool …" plus the file body after it), so file contents never trigger keywords.
 * The LAST typed part wins because @ai-sdk/anthropic merges consecutive user messages (e.g. a
 * failed turn without a reply followed by a new prompt) into one message.
 */
export function typedText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  let skipNext = false
  let last = ''
  for (const b of content as Block[]) {
    if (b?.type !== 'text' || typeof b.text !== 'string') continue
    const readCall = READ_CALL.test(b.text)
    if (!readCall && !skipNext && !SYNTHETIC.test(b.text)) last = b.text
    skipNext = readCall
  }
  return last
}

export function normalise(api: FakeApi, body: any): Conversation {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : []
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : []
  const conv: Conversation = { system: '', lastUserText: '', lastUserContent: undefined, toolCallsSinceUser: [], toolResultsSinceUser: 0, toolNames: [] }
  const systems: string[] = []
  if (api === 'anthropic') {
    systems.push(textOf(body?.system))
    conv.toolNames = tools.map((t) => String(t?.name))
  } else {
    conv.toolNames = tools.map((t) => String(t?.function?.name ?? t?.name))
  }
  for (const m of messages) {
    const content = m?.content
    if (m?.role === 'system') {
      systems.push(textOf(content))
    } else if (m?.role === 'user') {
      const text = textOf(content)
      // Anthropic carries tool results in user messages; only a message with text starts a new turn.
      const results = Array.isArray(content) ? content.filter((b: Block) => b?.type === 'tool_result').length : 0
      if (results > 0 && text === '') {
        conv.toolResultsSinceUser += results
      } else {
        // New user text starts a new turn; results merged into the same message belong to the old one.
        conv.lastUserText = typedText(content)
        conv.lastUserContent = content
        conv.toolCallsSinceUser = []
        conv.toolResultsSinceUser = 0
      }
    } else if (m?.role === 'tool') {
      conv.toolResultsSinceUser++
    } else if (m?.role === 'assistant') {
      for (const tc of m.tool_calls ?? []) conv.toolCallsSinceUser.push(String(tc?.function?.name))
      if (Array.isArray(content)) {
        for (const b of content as Block[]) if (b?.type === 'tool_use') conv.toolCallsSinceUser.push(String(b.name))
      }
    }
  }
  conv.system = systems.filter(Boolean).join('\n')
  return conv
}

/** System prompts of opencode 1.18.33's summary/compaction agents (binary strings; compaction observed). */
const SIDE_CALL = /You are a context summarization agent|Summarize what was done in this conversation|<prior-summary>/

/**
 * Classifies a request. Observed on 1.18.33: the title call has no `tools`, its system prompt
 * starts "You are a title generator", and its messages are [system, user "Generate a title for
 * this conversation:\n", user <first prompt>]. A real turn always offers tools (bash, edit, write,
 * …) unless the prompt switched them all off. Compaction (`session.summarize`) sends no tools, the
 * system prompt "You are a context summarization agent…" and one user message quoting the whole
 * conversation. Only system prompts are matched: the main prompt itself mentions "summarizing",
 * and a user may type anything.
 */
export function classify(conv: Conversation): 'chat' | 'title' | 'other' {
  if (conv.toolNames.length === 0 && /^You are a title generator/.test(conv.system.trimStart())) return 'title'
  if (SIDE_CALL.test(conv.system)) return 'other'
  return 'chat'
}

/** The project directory from opencode's system prompt ("Working directory: …"). */
export function workingDirectory(system: string): string | undefined {
  const m = /Working directory:\s*(\S.*)$/m.exec(system)
  return m?.[1]?.trim()
}

/** Splits a token list, honouring "double quoted" tokens with \" and \n escapes. */
function tokens(s: string): string[] {
  const out: string[] = []
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g
  for (let m = re.exec(s); m; m = re.exec(s)) out.push(m[1] !== undefined ? unescape(m[1]) : m[2]!)
  return out
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c))
}

/** Content after the path: a single quoted token keeps spaces exactly; otherwise the raw rest. */
function restContent(rest: string): string {
  const t = rest.trim()
  const q = /^"((?:[^"\\]|\\.)*)"$/.exec(t)
  return q ? unescape(q[1]!) : unescape(t)
}

const DIRECTIVE = /^(WRITE|EDIT|BASH)\s+([\s\S]*)$/

/** Tool directives in the user text: segments separated by newlines or " ; ". */
export function toolDirectives(text: string, cwd: string | undefined): FakeToolCall[] {
  const abs = (p: string) => (isAbsolute(p) || !cwd ? p : resolve(cwd, p))
  const calls: FakeToolCall[] = []
  for (const raw of text.split(/\n| ; /)) {
    const m = DIRECTIVE.exec(raw.trim())
    if (!m) continue
    const [, verb, rest = ''] = m
    if (verb === 'WRITE') {
      const [path = 'out.txt'] = tokens(rest)
      const after = rest.trim().startsWith('"') ? rest.trim().replace(/^"(?:[^"\\]|\\.)*"/, '') : rest.trim().slice(path.length)
      calls.push({ name: 'write', args: { filePath: abs(path), content: restContent(after) } })
    } else if (verb === 'EDIT') {
      const [path = '', oldString = '', newString = ''] = tokens(rest)
      calls.push({ name: 'edit', args: { filePath: abs(path), oldString, newString } })
    } else {
      const command = unescape(rest.trim())
      // opencode 1.18.33's bash schema is {command, timeout?, workdir?}: no `description`.
      calls.push({ name: 'bash', args: { command } })
    }
  }
  return calls
}

/** Splits `text` into `n` roughly equal chunks (at least one). */
export function chunk(text: string, n: number): string[] {
  if (text.length === 0) return ['']
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, n)))
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out
}

export const SLOW_DELAY_MS = 250
export const SLOW_CHUNKS = 40

export function failureMessage(keyword: string): string {
  return `Injected failure ${keyword}: the fake provider rejected this request`
}

/** The keyword behaviour for a conversation (README: keyword table). */
export function planFromKeywords(conv: Conversation, retryAfterMs?: number): FakeReply {
  const text = conv.lastUserText
  if (/\bHANG\b/.test(text)) return { kind: 'hang' }
  if (/\bFAILMID\b/.test(text)) return { kind: 'drop', text: `echo: ${text}`, afterChunks: 2 }
  const fail = /\bFAIL(400|401|429|500)\b/.exec(text)
  if (fail) {
    const status = Number(fail[1])
    const reply: FakeReply = { kind: 'error', status, message: failureMessage(`FAIL${fail[1]}`) }
    if (retryAfterMs !== undefined && (status === 429 || status >= 500)) reply.retryAfterMs = retryAfterMs
    return reply
  }

  const calls = toolDirectives(text, workingDirectory(conv.system))
  if (calls.length > 0) {
    const done = conv.toolResultsSinceUser
    if (done < calls.length) return { kind: 'tool', calls: [calls[done]!] }
    return { kind: 'text', text: `done: ${conv.toolCallsSinceUser.join(', ') || calls.map((c) => c.name).join(', ')}` }
  }

  const reply: FakeReply & { kind: 'text' } = { kind: 'text', text: `echo: ${text}`, chunks: 4 }
  if (/\bREASON\b/.test(text)) reply.reasoning = 'Let me think about this. The user wants an echo. '
  if (/\bSLOW\b/.test(text)) {
    // Filler words so even a one-word prompt streams for SLOW_CHUNKS × SLOW_DELAY_MS.
    reply.text += Array.from({ length: SLOW_CHUNKS }, (_, i) => ` w${i + 1}`).join('')
    reply.chunks = SLOW_CHUNKS
    reply.chunkDelayMs = SLOW_DELAY_MS
  }
  return reply
}

/** A compact label of a reply for the request log. */
export function describeReply(reply: FakeReply): string {
  switch (reply.kind) {
    case 'text':
      return reply.reasoning ? 'text+reasoning' : 'text'
    case 'tool':
      return `tool:${reply.calls.map((c) => c.name).join(',')}`
    case 'error':
      return `error:${reply.status}`
    case 'drop':
      return 'drop'
    case 'hang':
      return 'hang'
  }
}
