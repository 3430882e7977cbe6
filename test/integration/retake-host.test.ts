/**
 * The retake as one transaction on the host, against the real opencode server (only the LLM is
 * fake): `retake.run` rolls the files back and retakes the turn in one call; and a host killed
 * (SIGKILL) at each journaled step of it, then started again, ends with conversation and files at
 * one consistent point — the user's kept files intact, the message never lost, one click to send it.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventPayload } from '../../shared/ipc-contract'
import { startCoreApp, tree, waitSealed, type CoreApp } from '../support/core-fixture'
import { messagesBackTo } from '../../core/retake/session-pages'

let app: CoreApp | undefined
const roots: string[] = []
afterEach(async () => {
  await app?.stop()
  app = undefined
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true })
})

const FILES = { 'a.txt': 'alpha\n', 'c.txt': 'charlie\n' }
const AGENT_WORK = 'WRITE new.txt created by the agent ; EDIT a.txt alpha ALPHA ; BASH rm c.txt ; BASH echo from-shell > shell.txt'
const ECHO2 = { providerID: 'fake', modelID: 'echo-2' }
const sha = (s: string) => createHash('sha256').update(s).digest('hex')

type Msg = { info: { id: string; role: string }; parts: { type: string; text?: string }[] }
async function messages(sessionID: string): Promise<Msg[]> {
  return (await app!.client.session.messages({ sessionID })).data as never
}

/** A session with one turn that changed files, sealed. */
async function turnThatChangedFiles(): Promise<{ sessionID: string; userID: string }> {
  const sessionID = (await app!.client.session.create({})).data!.id
  const r = await app!.client.session.prompt({ sessionID, parts: [{ type: 'text', text: AGENT_WORK }] })
  const userID = (r.data!.info as { parentID: string }).parentID
  await waitSealed(app!, sessionID, userID)
  return { sessionID, userID }
}

describe('retake.run: the whole retake in one host call', () => {
  it('rolls the files back and retakes the turn with the model chosen now, reporting each step', async () => {
    app = await startCoreApp({ git: true, files: FILES })
    const before = tree(app.project)
    const { sessionID, userID } = await turnThatChangedFiles()
    const steps: string[] = []
    const off = app.core.onEvent('retake.progress', (p: EventPayload<'retake.progress'>) => steps.push(p.step))
    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
    app.fake.script({ kind: 'text', text: 'fine, nothing to change' })
    // ↺ pressed on the assistant's answer: the host finds the user turn itself.
    const answerID = (await messages(sessionID))[1].info.id
    const out = await app.call('retake.run', { directory: app.project, sessionID, clickedID: answerID, model: ECHO2, files: { planId: plan.planId } })
    off()
    expect(out).toMatchObject({ status: 'done', messageID: userID, restore: { status: 'done' } })
    expect(tree(app.project)).toEqual(before)
    // The retake's restore is the session's last restore, the record the Undo bar, the panel and /undo undo.
    const restoreId = out.status === 'done' ? out.restore?.restoreId : undefined
    expect(restoreId).toBeTruthy()
    expect(await app.call('checkpoints.lastRestore', { directory: app.project, sessionID })).toMatchObject({ restoreId, messageID: userID, rolledBack: true })
    const after = await messages(sessionID)
    expect(after.map((m) => m.info.role)).toEqual(['user', 'assistant'])
    expect(after[0].info.id).toBe(userID)
    expect(app.fake.chatRequests('echo-2').at(-1)!.lastUserText()).toBe(AGENT_WORK)
    expect(steps).toEqual(expect.arrayContaining(['save', 'hold', 'files', 'revert', 'delete-parts', 'prompt']))
    // Nothing is left in the journal, and no saved payload once it went through.
    expect(readdirSync(join(app.dataDir, 'retakes')).filter((n) => n.endsWith('.json'))).toEqual([])
    expect(await app.call('savedRetakes.list', { sessionID })).toEqual([])
  })
})

describe('retake.run with rewind: back to before the turn, nothing sent', () => {
  it('rolls the files back and reverts the conversation, returns the turn to edit, and prompts nothing', async () => {
    app = await startCoreApp({ git: true, files: FILES })
    const before = tree(app.project)
    const { sessionID, userID } = await turnThatChangedFiles()
    const asked = app.fake.requests.length
    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
    const out = await app.call('retake.run', { directory: app.project, sessionID, clickedID: userID, model: ECHO2, files: { planId: plan.planId }, rewind: true })
    expect(out).toMatchObject({ status: 'done', messageID: userID, restore: { status: 'done' }, draft: [{ type: 'text', text: AGENT_WORK }] })
    expect(tree(app.project)).toEqual(before)
    // The server's revert marks the turn (the window hides it); opencode drops it at the next prompt.
    const session = (await app.client.session.get({ sessionID })).data as { revert?: { messageID?: string } }
    expect(session.revert?.messageID).toBe(userID)
    expect(app.fake.requests.length).toBe(asked)
    // No attempt kept, nothing left in the journal or the saved payloads.
    expect(await app.call('attempts.list', { sessionID })).toEqual([])
    expect(readdirSync(join(app.dataDir, 'retakes')).filter((n) => n.endsWith('.json'))).toEqual([])
    expect(await app.call('savedRetakes.list', { sessionID })).toEqual([])
  })
})

describe('reading a long session back to the retaken turn', () => {
  it('pages back with opencode’s cursor until the turn and its question are in, and no further', async () => {
    app = await startCoreApp({ files: FILES })
    const sessionID = (await app.client.session.create({})).data!.id
    for (const q of ['one', 'two', 'three', 'four']) await app.client.session.prompt({ sessionID, parts: [{ type: 'text', text: q }] })
    const all = await messages(sessionID)
    expect(all).toHaveLength(8)
    // The last answer: one page of 3 holds it and its question.
    expect((await messagesBackTo(app.client, sessionID, all[7]!.info.id, 3)).map((m) => m.info.id)).toEqual(all.slice(5).map((m) => m.info.id))
    // The first answer: its question is one page further back; the whole session comes in order.
    expect((await messagesBackTo(app.client, sessionID, all[1]!.info.id, 3)).map((m) => m.info.id)).toEqual(all.map((m) => m.info.id))
    // An answer whose question sits on the previous page: that page is read too.
    const back = await messagesBackTo(app.client, sessionID, all[3]!.info.id, 3)
    expect(back.map((m) => m.info.id)).toEqual(all.slice(2).map((m) => m.info.id))
  })
})

/** Runs a host that plans and retakes the turn (keeping new.txt) and SIGKILLs itself after `phase`. */
function crashingRetake(root: string, sessionID: string, userID: string, phase: string): Promise<NodeJS.Signals | number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/retake-crash-child.ts', root, sessionID, userID, phase, 'new.txt'], {
    cwd: process.cwd(),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)))
}

describe.each([
  ['held', 'rollback'],
  ['restored', 'rollback'],
  ['reverting', 'rollback'],
  ['reverted', 'forward'],
  ['prompting', 'forward'],
] as const)('a host killed after the retake journaled "%s"', (phase, outcome) => {
  it(`is ${outcome === 'rollback' ? 'rolled back' : 'finished up to the prompt'} at the next start; nothing the user had is lost`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'retake-crash-'))
    roots.push(root)
    app = await startCoreApp({ root, git: true, files: FILES })
    const beforeTurn = tree(app.project)
    const { sessionID, userID } = await turnThatChangedFiles()
    // The user edits a file after the turn (a conflict, kept by default) and keeps new.txt.
    writeFileSync(join(app.project, 'a.txt'), 'my own edit\n')
    const newTxt = readFileSync(join(app.project, 'new.txt'), 'utf8')
    const beforeRetake = tree(app.project)
    const conversation = (await messages(sessionID)).map((m) => m.info.id)
    await app.stop()
    app = undefined

    expect(await crashingRetake(root, sessionID, userID, phase)).toBe('SIGKILL')
    app = await startCoreApp({ root })

    const saved = await app.call('savedRetakes.list', { sessionID })
    expect(saved).toHaveLength(1)
    expect(saved[0]).toMatchObject({ messageID: userID, state: 'failed', error: expect.stringContaining('Retake stopped during this retake') })
    expect(JSON.stringify(saved[0].parts)).toContain(AGENT_WORK)
    expect(readdirSync(join(app.dataDir, 'retakes')).filter((n) => n.endsWith('.json'))).toEqual([])
    expect(readdirSync(join(app.dataDir, 'retakes', 'held'))).toEqual([])

    if (outcome === 'rollback') {
      // Files as they were before the retake, conversation untouched.
      expect(tree(app.project)).toEqual(beforeRetake)
      const list = await messages(sessionID)
      expect(list.map((m) => m.info.id)).toEqual(conversation)
      expect(list[0].parts.some((p) => p.text === AGENT_WORK)).toBe(true)
    } else {
      // Files back to before the turn except what the user kept; the message not sent yet.
      expect(tree(app.project)).toEqual({ ...beforeTurn, 'a.txt': sha('my own edit\n'), 'new.txt': sha(newTxt) })
      expect(existsSync(join(app.project, 'shell.txt'))).toBe(false)
      const mine = (await messages(sessionID)).find((m) => m.info.id === userID)
      expect(mine?.parts ?? []).toEqual([])
    }

    // "Send again": one click, the same message id, and the turn runs.
    app.fake.script({ kind: 'text', text: 'retaken after the crash' })
    const again = await app.call('retake.run', { directory: app.project, sessionID, clickedID: userID, model: ECHO2, fromSaved: true })
    expect(again).toMatchObject({ status: 'done', messageID: userID })
    const list = await messages(sessionID)
    expect(list.map((m) => m.info.role)).toEqual(['user', 'assistant'])
    expect(list[0].info.id).toBe(userID)
    expect(app.fake.chatRequests('echo-2').at(-1)!.lastUserText()).toBe(AGENT_WORK)
    expect(await app.call('savedRetakes.list', { sessionID })).toEqual([])
  })
})
