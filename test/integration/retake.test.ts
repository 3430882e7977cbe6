/**
 * ↺ Retake against the real opencode server (only the LLM is fake): the same message id comes back
 * with the model chosen now, later turns are discarded, nothing is duplicated, and no failure —
 * not even the server dying mid-retake — loses the user's message.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ModelRef } from '../../shared/ipc-contract'
import { runRetake, RetakeError, type RetakeDeps } from '../../core/retake/retake-flow'
import { createSdkRetakeDeps } from '../../core/retake/sdk-retake-deps'
import { answersTo, retakeTargetFor } from '../../shared/retake/retake-target'
import { startTestServer, type TestServer } from '../support/opencode-fixture'

let t: TestServer
const ECHO: ModelRef = { providerID: 'fake', modelID: 'echo' }
const ECHO2: ModelRef = { providerID: 'fake', modelID: 'echo-2' }

type Msg = {
  info: { id: string; role: string; parentID?: string; error?: { data?: { message?: string; statusCode?: number } }; modelID?: string }
  parts: { id: string; type: string; text?: string; synthetic?: boolean }[]
}

async function messages(sessionID: string): Promise<Msg[]> {
  const r = await t.client().session.messages({ sessionID })
  return r.data as unknown as Msg[]
}

async function newSession(): Promise<string> {
  const r = await t.client().session.create({ title: 'retake test' })
  return r.data!.id
}

async function send(sessionID: string, text: string, model: ModelRef = ECHO) {
  const r = await t.client().session.prompt({ sessionID, model, parts: [{ type: 'text', text }] })
  expect(r.response?.status).toBe(200)
  return r.data!
}

function deps(overrides: Partial<RetakeDeps> = {}): RetakeDeps {
  const store = {
    save: async (e: Parameters<RetakeDeps['save']>[0]) => t.stores.saveRetake(e),
    drop: async (s: string, m: string) => t.stores.dropRetake(s, m),
    recordAttempt: async (a: Parameters<RetakeDeps['recordAttempt']>[0]) => t.stores.addAttempt(a),
  }
  return { ...createSdkRetakeDeps(t.client(), store), ...overrides }
}

/** What the chat panel does on ↺: find the user turn, gather it and its answers, run the flow. */
async function retake(sessionID: string, clickedMessageID: string, model: ModelRef, d: RetakeDeps = deps()) {
  const list = await messages(sessionID)
  const target = retakeTargetFor(list, clickedMessageID)
  expect(target).not.toBeNull()
  const message = list.find((m) => m.info.id === target)!
  return runRetake({ sessionID, messageID: target!, directory: t.project, message: message as never, model, previousAnswers: answersTo(list, target!), previousModel: ECHO }, d)
}

const userTexts = (list: Msg[]) =>
  list
    .filter((m) => m.info.role === 'user')
    .map((m) =>
      m.parts
        .filter((p) => p.type === 'text' && !p.synthetic)
        .map((p) => p.text)
        .join(''),
    )

beforeAll(async () => {
  t = await startTestServer({ git: true, files: { 'README.md': 'hello\n' } })
})
afterAll(async () => t?.stop())
beforeEach(() => t.fake.reset())

describe('↺ retake on the real server', () => {
  it('a turn that failed with 400 is retaken on the model chosen now, with the same message and the text sent once', async () => {
    const sessionID = await newSession()
    t.fake.failModel('echo', 400)
    const failed = await send(sessionID, 'summarise the readme')
    expect(failed.info.error).toMatchObject({ data: { statusCode: 400 } })
    t.fake.failModel('echo', null)
    const userID = (await messages(sessionID))[0].info.id

    const out = await retake(sessionID, userID, ECHO2)
    expect(out.turnError).toBeUndefined()
    expect(out.assistant.parentID).toBe(userID)

    const asked = t.fake.chatRequests('echo-2')
    expect(asked).toHaveLength(1)
    const sent = JSON.stringify(asked[0].body.messages)
    expect(sent.split('summarise the readme').length - 1).toBe(1)

    const list = await messages(sessionID)
    expect(list.map((m) => m.info.role)).toEqual(['user', 'assistant'])
    expect(list[0].info.id).toBe(userID)
    expect(list[1].info).toMatchObject({ modelID: 'echo-2' })
    expect(list[1].info.error).toBeUndefined()
    expect(t.stores.savedRetakes(sessionID)).toEqual([])
  })

  it('↺ on an assistant message retakes the user turn it answers', async () => {
    const sessionID = await newSession()
    const answer = await send(sessionID, 'first question')
    const out = await retake(sessionID, answer.info.id, ECHO2)
    const list = await messages(sessionID)
    expect(list.map((m) => m.info.role)).toEqual(['user', 'assistant'])
    expect(out.assistant.parentID).toBe(list[0].info.id)
    expect(list[1].parts.find((p) => p.type === 'text')?.text).toBe('echo: first question')
    // The replaced answer is kept locally as an earlier attempt.
    const attempts = t.stores.attempts(sessionID)
    expect(attempts).toHaveLength(1)
    expect(JSON.stringify(attempts[0].messages)).toContain(answer.info.id)
  })

  it('↺ on the 2nd of 4 turns discards the later turns and leaves no duplicate user message', async () => {
    const sessionID = await newSession()
    for (const q of ['one', 'two', 'three', 'four']) await send(sessionID, q)
    const second = (await messages(sessionID)).filter((m) => m.info.role === 'user')[1].info.id
    await retake(sessionID, second, ECHO2)
    const list = await messages(sessionID)
    expect(userTexts(list)).toEqual(['one', 'two'])
    expect(list.filter((m) => m.info.id === second)).toHaveLength(1)
    expect(list.map((m) => m.info.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    const last = t.fake.chatRequests('echo-2').at(-1)!
    expect(last.lastUserText()).toBe('two')
    expect(JSON.stringify(last.body.messages)).not.toContain('three')
  })

  it('↺ while the turn is still streaming stops it first, then retakes it', async () => {
    const sessionID = await newSession()
    await t.client().session.promptAsync({ sessionID, model: ECHO, parts: [{ type: 'text', text: 'SLOW answer please' }] })
    await t.fake.waitForRequest((r) => r.kind === 'chat' && r.lastUserText().includes('SLOW'))
    const userID = (await messages(sessionID)).find((m) => m.info.role === 'user')!.info.id
    const out = await retake(sessionID, userID, ECHO2)
    expect(out.assistant.parentID).toBe(userID)
    const list = await messages(sessionID)
    expect(list.map((m) => m.info.role)).toEqual(['user', 'assistant'])
    expect(list[1].info.modelID).toBe('echo-2')
  })

  it('↺ with a model that does not exist keeps the message and offers the retake again', async () => {
    const sessionID = await newSession()
    await send(sessionID, 'keep me safe')
    const userID = (await messages(sessionID))[0].info.id
    const err = await retake(sessionID, userID, { providerID: 'fake', modelID: 'nope' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RetakeError)
    expect((err as RetakeError).step).toBe('prompt')
    const [saved] = t.stores.savedRetakes(sessionID)
    expect(saved).toMatchObject({ messageID: userID, state: 'failed', parts: [{ type: 'text', text: 'keep me safe' }] })

    // Send again with a real model, from the saved payload.
    const list = await messages(sessionID)
    const out = await runRetake(
      { sessionID, messageID: userID, directory: t.project, message: (list.find((m) => m.info.id === userID) as never) ?? null, model: ECHO2, previousAnswers: [], saved },
      deps(),
    )
    expect(out.turnError).toBeUndefined()
    const after = await messages(sessionID)
    expect(userTexts(after)).toEqual(['keep me safe'])
    expect(after.map((m) => m.info.role)).toEqual(['user', 'assistant'])
    expect(t.stores.savedRetakes(sessionID)).toEqual([])
  })

  it('the server dying between steps loses nothing: the payload survives a manager restart and Send again works', async () => {
    const sessionID = await newSession()
    await send(sessionID, 'survive the crash, please')
    const userID = (await messages(sessionID))[0].info.id
    const base = deps()
    const dying = deps({
      async deletePart(s, m, p) {
        // The server goes away after the revert, just before the parts are deleted.
        await t.server.stop()
        return base.deletePart(s, m, p)
      },
    })
    const err = await retake(sessionID, userID, ECHO2, dying).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RetakeError)
    expect((err as RetakeError).step).toBe('delete-parts')

    await t.restartManager()
    const [saved] = t.stores.savedRetakes(sessionID)
    expect(saved).toMatchObject({ state: 'failed', parts: [{ type: 'text', text: 'survive the crash, please' }] })
    const list = await messages(sessionID)
    const out = await runRetake(
      { sessionID, messageID: userID, directory: t.project, message: (list.find((m) => m.info.id === userID) as never) ?? null, model: ECHO2, previousAnswers: [], saved },
      deps(),
    )
    expect(out.assistant.parentID).toBe(userID)
    const after = await messages(sessionID)
    expect(userTexts(after)).toEqual(['survive the crash, please'])
    expect(after.map((m) => m.info.role)).toEqual(['user', 'assistant'])
  })
})
