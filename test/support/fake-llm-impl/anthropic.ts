/**
 * Anthropic Messages wire format, as read by `@ai-sdk/anthropic` inside opencode: named SSE
 * events message_start → content_block_start/delta/stop (thinking, text, tool_use) →
 * message_delta (stop_reason) → message_stop.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FakeReply } from './types'
import { chunk } from './plan'
import { drop, gone, hang, holdFor, pause, retryHeaders, roughTokens, sendJson, startSse } from './sse'

let counter = 0

function errorType(status: number): string {
  if (status === 401) return 'authentication_error'
  if (status === 429) return 'rate_limit_error'
  if (status >= 500) return 'api_error'
  return 'invalid_request_error'
}

export async function writeAnthropic(req: IncomingMessage, res: ServerResponse, body: any, reply: FakeReply): Promise<void> {
  const model = String(body?.model ?? 'unknown')
  if (reply.kind === 'error') {
    const message = reply.message ?? `Injected failure ${reply.status}`
    sendJson(res, reply.status, { type: 'error', error: { type: errorType(reply.status), message } }, retryHeaders(reply.retryAfterMs))
    return
  }
  if (reply.kind === 'hang') return hang(res)

  const id = `msg_fake_${++counter}`
  const usage = { input_tokens: roughTokens(JSON.stringify(body?.messages ?? [])), output_tokens: 1 }
  if (body?.stream !== true) {
    const content: unknown[] = []
    if (reply.kind === 'text' && reply.reasoning) content.push({ type: 'thinking', thinking: reply.reasoning, signature: 'fake-signature' })
    const text = 'text' in reply ? (reply.text ?? '') : ''
    if (text) content.push({ type: 'text', text })
    if (reply.kind === 'tool') reply.calls.forEach((c, i) => content.push({ type: 'tool_use', id: `toolu_fake_${counter}_${i}`, name: c.name, input: c.args }))
    sendJson(res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage,
    })
    return
  }

  startSse(res)
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  send('message_start', {
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  })
  let index = 0
  const textBlock = async (text: string, pieces: number, delay: number) => {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } })
    for (const piece of chunk(text, pieces)) {
      if (gone(res)) return
      send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } })
      await pause(res, delay)
    }
    send('content_block_stop', { index: index++ })
  }
  const finish = (stop: string, out: string) => {
    if (gone(res)) return
    send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: roughTokens(out) } })
    send('message_stop', {})
    res.end()
  }

  if (reply.kind === 'drop') {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } })
    for (const piece of chunk(reply.text ?? 'partial answer', 6).slice(0, reply.afterChunks ?? 2))
      send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } })
    await pause(res, 50)
    drop(req, res)
    return
  }

  if (reply.kind === 'tool') {
    if (reply.text) await textBlock(reply.text, 1, 0)
    for (const [i, c] of reply.calls.entries()) {
      const args = JSON.stringify(c.args)
      const half = Math.ceil(args.length / 2)
      send('content_block_start', { index, content_block: { type: 'tool_use', id: `toolu_fake_${counter}_${i}`, name: c.name, input: {} } })
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: args.slice(0, half) } })
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: args.slice(half) } })
      send('content_block_stop', { index: index++ })
    }
    finish('tool_use', JSON.stringify(reply.calls))
    return
  }

  const delay = reply.chunkDelayMs ?? 0
  if (reply.reasoning) {
    send('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } })
    for (const piece of chunk(reply.reasoning, 5)) {
      if (gone(res)) return
      send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } })
      await pause(res, delay)
    }
    send('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'fake-signature' } })
    send('content_block_stop', { index: index++ })
  }
  await textBlock(reply.text, reply.chunks ?? 4, delay)
  await holdFor(res, reply.holdUntil)
  finish('end_turn', reply.text)
}
