/**
 * Attachments against the real opencode server and the fake's Anthropic endpoint (opencode's
 * @ai-sdk/anthropic adapter, which refuses text/markdown file parts before any request): Retake's
 * inline format gets a markdown file through as text, and ↺ repairs a message another client sent
 * with a real text/markdown file part, the provider receiving the very same bytes (SHA-256 equal).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ModelRef } from '../../shared/ipc-contract'
import { buildPromptParts, toPending } from '../../src/features/attachments/attachments'
import { bytesToDataUrl, parseInlinedAttachment, sha256Hex } from '../../shared/attachments/inlined-attachment'
import { runRetake, type RetakeDeps } from '../../core/retake/retake-flow'
import { createSdkRetakeDeps } from '../../core/retake/sdk-retake-deps'
import { answersTo, retakeTargetFor } from '../../shared/retake/retake-target'
import { startTestServer, type TestServer } from '../support/opencode-fixture'

let t: TestServer
const CLAUDE: ModelRef = { providerID: 'anth', modelID: 'claude-fake' }

// CRLF, a BOM, a blank first line and a line that looks like the format's end marker: all must survive.
const MARKDOWN = '\uFEFF\r\n# Notes\r\n\r\n- one\r\n- two\r\n</attached-file sha256="0">\r\nlast line without newline'
const BYTES = new TextEncoder().encode(MARKDOWN)

type Msg = { info: { id: string; role: string; error?: { name?: string; data?: { message?: string } } }; parts: { id: string; type: string; text?: string; mime?: string }[] }

async function messages(sessionID: string): Promise<Msg[]> {
  return (await t.client().session.messages({ sessionID })).data as unknown as Msg[]
}

async function newSession(): Promise<string> {
  return (await t.client().session.create({ title: 'attachments' })).data!.id
}

/** Every text block of the user messages the provider received, in order. */
function userTextBlocks(body: { messages?: { role: string; content: unknown }[] }): string[] {
  const out: string[] = []
  for (const m of body.messages ?? []) {
    if (m.role !== 'user') continue
    if (typeof m.content === 'string') out.push(m.content)
    else for (const b of m.content as { type: string; text?: string }[]) if (b.type === 'text' && b.text) out.push(b.text)
  }
  return out
}

function deps(): RetakeDeps {
  const store = {
    save: async (e: Parameters<RetakeDeps['save']>[0]) => t.stores.saveRetake(e),
    drop: async (s: string, m: string) => t.stores.dropRetake(s, m),
    recordAttempt: async (a: Parameters<RetakeDeps['recordAttempt']>[0]) => t.stores.addAttempt(a),
  }
  return createSdkRetakeDeps(t.client(), store)
}

beforeAll(async () => {
  t = await startTestServer({ git: true })
})
afterAll(async () => t?.stop())
beforeEach(() => t.fake.reset())

describe('attachments on the Anthropic adapter', () => {
  it('a markdown file in the inline format reaches the model as text, byte for byte, and the turn succeeds', async () => {
    const sessionID = await newSession()
    const parts = buildPromptParts('summarise the notes', [toPending({ name: 'notes.md', type: 'text/markdown', bytes: BYTES })])
    expect(parts.map((p) => p.type)).toEqual(['text', 'text'])
    const r = await t.client().session.prompt({ sessionID, model: CLAUDE, parts: parts as never })
    expect(r.response?.status).toBe(200)
    expect(r.data!.info.error).toBeUndefined()

    const [req] = t.fake.chatRequests('claude-fake')
    expect(req).toBeDefined()
    expect(req!.api).toBe('anthropic')
    const blocks = userTextBlocks(req!.body)
    const inline = blocks.map(parseInlinedAttachment).find((a) => a !== null)
    expect(inline).toBeDefined()
    expect(inline!).toMatchObject({ name: 'notes.md', mime: 'text/markdown', text: MARKDOWN, sha256: sha256Hex(BYTES) })
    expect(blocks).toContain('summarise the notes')
    // The stored user message holds the same block (no synthetic parts, no file part).
    const user = (await messages(sessionID)).find((m) => m.info.role === 'user')!
    expect(user.parts.filter((p) => p.type === 'file')).toEqual([])
  })

  it('a real text/markdown file part fails as today, poisons the session, and ↺ repairs it with the same bytes', async () => {
    const sessionID = await newSession()
    // What another opencode client sends: the file as a file part.
    const filePart = { type: 'file' as const, mime: 'text/markdown', filename: 'notes.md', url: bytesToDataUrl(BYTES, 'text/markdown') }
    const r = await t.client().session.prompt({ sessionID, model: CLAUDE, parts: [{ type: 'text', text: 'read my notes' }, filePart] })
    expect(r.response?.status).toBe(200)
    expect(r.data!.info.error).toMatchObject({ name: 'UnknownError' })
    expect(r.data!.info.error!.data).toMatchObject({ message: expect.stringMatching(/functionality not supported/) })
    expect(t.fake.chatRequests()).toHaveLength(0)
    // The failing file part stays in the history: a plain follow-up fails the same way.
    const poisoned = await t.client().session.prompt({ sessionID, model: CLAUDE, parts: [{ type: 'text', text: 'are you there?' }] })
    expect(poisoned.data!.info.error).toMatchObject({ name: 'UnknownError' })
    expect(t.fake.chatRequests()).toHaveLength(0)

    // ↺ on the failed turn: the payload inlines the file part; the model chosen now is the same Claude.
    const list = await messages(sessionID)
    const userID = list.find((m) => m.info.role === 'user')!.info.id // the first turn, with the file
    const target = retakeTargetFor(list as never, userID)!
    const message = list.find((m) => m.info.id === target)!
    const out = await runRetake(
      { sessionID, messageID: target, directory: t.project, message: message as never, model: CLAUDE, previousAnswers: answersTo(list as never, target), previousModel: CLAUDE },
      deps(),
    )
    expect(out.turnError).toBeUndefined()
    expect(out.assistant.parentID).toBe(userID)

    const asked = t.fake.chatRequests('claude-fake')
    expect(asked).toHaveLength(1)
    const inline = userTextBlocks(asked[0]!.body)
      .map(parseInlinedAttachment)
      .filter((a) => a !== null)
    expect(inline).toHaveLength(1)
    expect(inline[0]!.sha256).toBe(sha256Hex(BYTES))
    expect(inline[0]!.text).toBe(MARKDOWN)

    // The message is repaired: the same id, the file now an inline text part, and a later turn works.
    const after = await messages(sessionID)
    expect(after.map((m) => m.info.role)).toEqual(['user', 'assistant'])
    expect(after[0]!.parts.some((p) => p.type === 'file')).toBe(false)
    const next = await t.client().session.prompt({ sessionID, model: CLAUDE, parts: [{ type: 'text', text: 'plain follow-up' }] })
    expect(next.data!.info.error).toBeUndefined()
  })
})
