/**
 * OpenAI chat-completions wire format, as read by `@ai-sdk/openai-compatible` inside opencode:
 * `data: {chat.completion.chunk}` lines, reasoning as `delta.reasoning_content`, tool calls as
 * `delta.tool_calls` with the arguments streamed in pieces, then `data: [DONE]`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FakeReply } from './types'
import { chunk } from './plan'
import { drop, gone, hang, holdFor, pause, retryHeaders, roughTokens, sendJson, startSse } from './sse'

let counter = 0

function errorType(status: number): string {
  if (status === 401) return 'authentication_error'
  if (status === 429) return 'rate_limit_exceeded'
  if (status >= 500) return 'server_error'
  return 'invalid_request_error'
}

export async function writeOpenAi(req: IncomingMessage, res: ServerResponse, body: any, reply: FakeReply): Promise<void> {
  const model = String(body?.model ?? 'unknown')
  if (reply.kind === 'error') {
    const message = reply.message ?? `Injected failure ${reply.status}`
    sendJson(res, reply.status, { error: { message, type: errorType(reply.status), param: null, code: null } }, retryHeaders(reply.retryAfterMs))
    return
  }
  if (reply.kind === 'hang') return hang(res)

  const id = `chatcmpl-fake-${++counter}`
  const created = Math.floor(Date.now() / 1000)
  const frame = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`
  // Rough token counts from sizes, so opencode's session token totals move like real ones.
  const input = roughTokens(JSON.stringify(body?.messages ?? []))
  const usage = (out: string) => ({
    usage: { prompt_tokens: input, completion_tokens: roughTokens(out), total_tokens: input + roughTokens(out) },
  })

  if (body?.stream !== true) {
    // Non-streaming callers (none seen from opencode 1.18, kept for completeness).
    const text = 'text' in reply ? (reply.text ?? '') : ''
    const message: Record<string, unknown> = { role: 'assistant', content: text }
    if (reply.kind === 'text' && reply.reasoning) message.reasoning_content = reply.reasoning
    if (reply.kind === 'tool')
      message.tool_calls = reply.calls.map((c, i) => ({ id: `call_fake_${counter}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }))
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, finish_reason: reply.kind === 'tool' ? 'tool_calls' : 'stop' }],
      ...usage(text),
    })
    return
  }

  startSse(res)
  res.write(frame({ role: 'assistant', content: '' }))

  if (reply.kind === 'drop') {
    for (const piece of chunk(reply.text ?? 'partial answer', 6).slice(0, reply.afterChunks ?? 2)) res.write(frame({ content: piece }))
    // Let the chunks leave before the reset so the client really sees a mid-stream failure.
    await pause(res, 50)
    drop(req, res)
    return
  }

  if (reply.kind === 'tool') {
    if (reply.text) res.write(frame({ content: reply.text }))
    reply.calls.forEach((c, index) => {
      const args = JSON.stringify(c.args)
      const half = Math.ceil(args.length / 2)
      res.write(frame({ tool_calls: [{ index, id: `call_fake_${counter}_${index}`, type: 'function', function: { name: c.name, arguments: args.slice(0, half) } }] }))
      res.write(frame({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }))
    })
    res.write(frame({}, 'tool_calls', usage(JSON.stringify(reply.calls))))
    res.end('data: [DONE]\n\n')
    return
  }

  const delay = reply.chunkDelayMs ?? 0
  if (reply.reasoning) {
    for (const piece of chunk(reply.reasoning, 5)) {
      if (gone(res)) return
      res.write(frame({ reasoning_content: piece }))
      await pause(res, delay)
    }
  }
  const pieces = chunk(reply.text, reply.chunks ?? 4)
  for (const [i, piece] of pieces.entries()) {
    if (i === pieces.length - 1) await holdFor(res, reply.holdUntil)
    if (gone(res)) return
    res.write(frame({ content: piece }))
    await pause(res, delay)
  }
  if (gone(res)) return
  res.write(frame({}, 'stop', usage(reply.text)))
  res.end('data: [DONE]\n\n')
}
