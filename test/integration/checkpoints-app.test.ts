/**
 * Checkpoints in the app, against the real opencode server (only the LLM is fake): every prompt
 * through Retake's proxy is checkpointed, the turn is sealed when the session goes idle, and a
 * retake rolls the folder back — in a git project and in a plain folder — without touching what the
 * user edited, undoably, several turns back, extra folders yes, shared folders no.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ModelRef } from '../../shared/ipc-contract'
import { startCoreApp, tree, waitSealed, type CoreApp } from '../support/core-fixture'
import { hostFetch } from '../support/host-fetch'

let app: CoreApp | undefined
afterEach(async () => {
  await app?.stop()
  app = undefined
})

const ECHO2: ModelRef = { providerID: 'fake', modelID: 'echo-2' }
const FILES = { 'a.txt': 'alpha\r\nline two\n', 'c.txt': 'charlie\n', 'keep/notes.md': '# notes\n', 'bin.dat': '\u0000\u0001\u0002binary' }

async function prompt(text: string) {
  const s = await app!.client.session.create({})
  const sessionID = s.data!.id
  return { sessionID, ...(await turn(sessionID, text)) }
}

async function turn(sessionID: string, text: string) {
  const r = await app!.client.session.prompt({ sessionID, parts: [{ type: 'text', text }] })
  expect(r.response?.status).toBe(200)
  const info = r.data!.info as { parentID: string; error?: unknown }
  expect(info.error).toBeUndefined()
  await sealed(sessionID, info.parentID)
  return { userID: info.parentID }
}

const sealed = (sessionID: string, messageID: string) => waitSealed(app!, sessionID, messageID)

/** ↺ as the app runs it: one call to the host, which does the whole retake. */
async function retake(sessionID: string, userID: string, files?: { planId: string; overwrite: string[] }) {
  // The retaken turn answers in words only, so the folder shows exactly what the restore did.
  app!.fake.script({ kind: 'text', text: 'fine, nothing to change' })
  const out = await app!.call('retake.run', { directory: app!.project, sessionID, clickedID: userID, model: ECHO2, ...(files ? { files } : {}) })
  if (out.status !== 'done') throw new Error(`retake failed at ${out.step}: ${out.error}`)
  return out
}

const agentWork = 'WRITE new.txt created by the agent ; EDIT a.txt alpha ALPHA ; BASH rm c.txt ; BASH echo from-shell > shell.txt'

describe.each([
  ['a git project', true],
  ['a plain folder', false],
])('retake with files in %s', (_name, git) => {
  it('the folder is byte-identical to before the turn and the conversation is retaken', async () => {
    app = await startCoreApp({ git, files: FILES })
    const before = tree(app.project)
    const { sessionID, userID } = await prompt(agentWork)
    expect(readFileSync(join(app.project, 'new.txt'), 'utf8')).toContain('created by the agent')
    expect(existsSync(join(app.project, 'c.txt'))).toBe(false)
    expect(readFileSync(join(app.project, 'shell.txt'), 'utf8')).toBe('from-shell\n')

    const turns = await app.call('checkpoints.list', { directory: app.project, sessionID })
    const changes = turns
      .find((t) => t.messageID === userID)!
      .changes.map((c) => `${c.change}:${c.path}`)
      .sort()
    expect(changes).toEqual(['added:new.txt', 'added:shell.txt', 'deleted:c.txt', 'modified:a.txt'])

    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
    expect(plan.actions.filter((a) => a.kind === 'conflict')).toEqual([])
    const out = await retake(sessionID, userID, { planId: plan.planId, overwrite: [] })
    expect(out.restore?.status).toBe('done')
    expect(tree(app.project)).toEqual(before)
    const messages = (await app.client.session.messages({ sessionID })).data!
    expect(messages.map((m) => m.info.role)).toEqual(['user', 'assistant'])
    expect(messages[0].info.id).toBe(userID)
  })

  it('a file the user edited after the turn is kept and reported as a conflict; undo puts the folder back', async () => {
    app = await startCoreApp({ git, files: FILES })
    const { sessionID, userID } = await prompt(agentWork)
    writeFileSync(join(app.project, 'a.txt'), 'my own edit\n')
    const afterTurn = tree(app.project)

    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
    const conflicts = plan.actions.filter((a) => a.kind === 'conflict')
    expect(conflicts.map((c) => c.path)).toEqual(['a.txt'])
    expect(conflicts[0].actualHash).not.toBe(conflicts[0].expectedHash)

    const out = await retake(sessionID, userID, { planId: plan.planId, overwrite: [] })
    expect(readFileSync(join(app.project, 'a.txt'), 'utf8')).toBe('my own edit\n')
    expect(existsSync(join(app.project, 'new.txt'))).toBe(false)
    expect(readFileSync(join(app.project, 'c.txt'), 'utf8')).toBe('charlie\n')

    const undone = await app.call('checkpoints.undo', { directory: app.project, restoreId: out.restore!.restoreId! })
    expect(undone.status).toBe('done')
    expect(tree(app.project)).toEqual(afterTurn)
  })
})

describe('several turns, extra and shared folders', () => {
  it('restores back three turns at once (files only)', async () => {
    app = await startCoreApp({ files: FILES })
    const before = tree(app.project)
    const { sessionID, userID: first } = await prompt('WRITE one.txt 1')
    await turn(sessionID, 'EDIT one.txt 1 uno ; WRITE two.txt 2')
    await turn(sessionID, 'BASH rm a.txt ; WRITE three.txt 3')
    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: first } } })
    expect(plan.turns).toHaveLength(3)
    const result = await app.call('checkpoints.apply', { directory: app.project, planId: plan.planId, onConflict: 'restore-rest', overwrite: [] })
    expect(result.status).toBe('done')
    expect(tree(app.project)).toEqual(before)
    // A second restore of the same target is a no-op.
    const again = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: first } } })
    expect(again.actions.filter((a) => a.kind !== 'nothing')).toEqual([])
  })

  it('an extra folder is rolled back, a shared folder is not', async () => {
    const root = mkdtempSync(join(tmpdir(), 'retake-vol-'))
    const extra = join(root, 'extra')
    const shared = join(root, 'shared')
    mkdirSync(extra)
    mkdirSync(shared)
    writeFileSync(join(extra, 'e.txt'), 'extra before\n')
    writeFileSync(join(shared, 's.txt'), 'shared before\n')
    app = await startCoreApp({
      root,
      files: FILES,
      settings: {
        extraFolders: [
          { path: extra, shared: false },
          { path: shared, shared: true },
        ],
      },
    })
    const { sessionID, userID } = await prompt(`BASH echo extra after > ${extra}/e.txt && echo shared after > ${shared}/s.txt`)
    expect(readFileSync(join(extra, 'e.txt'), 'utf8')).toBe('extra after\n')
    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
    const result = await app.call('checkpoints.apply', { directory: app.project, planId: plan.planId, onConflict: 'restore-rest', overwrite: [] })
    expect(result.status).toBe('done')
    expect(readFileSync(join(extra, 'e.txt'), 'utf8')).toBe('extra before\n')
    expect(readFileSync(join(shared, 's.txt'), 'utf8')).toBe('shared after\n')
  })
})

describe('when no checkpoint can be recorded', () => {
  it('the prompt is refused with a clear error, nothing is sent, and the user may send without one', async () => {
    const root = mkdtempSync(join(tmpdir(), 'retake-nockpt-'))
    // The store's folder is taken by a file: every capture fails (even as root).
    mkdirSync(join(root, 'data'), { recursive: true })
    writeFileSync(join(root, 'data', 'checkpoints'), 'not a folder')
    app = await startCoreApp({ root, files: FILES })
    const s = await app.client.session.create({})
    const sessionID = s.data!.id
    const refused = await app.client.session.promptAsync({ sessionID, parts: [{ type: 'text', text: 'WRITE x.txt nope' }] })
    expect(refused.response?.status).toBe(409)
    expect(refused.error).toMatchObject({ name: 'CheckpointFailed', data: { message: expect.stringContaining('could not record a checkpoint') } })
    expect(app.fake.chatRequests()).toHaveLength(0)
    expect((await app.client.session.messages({ sessionID })).data).toEqual([])

    const sent = await app.client.session.prompt({ sessionID, parts: [{ type: 'text', text: 'hello without a checkpoint' }] }, { headers: { 'x-retake-checkpoint': 'skip' } })
    expect(sent.response?.status).toBe(200)
    expect(app.fake.chatRequests()[0].lastUserText()).toBe('hello without a checkpoint')
  })
})

describe('capture progress reaches the window', () => {
  it('the host pushes checkpoint progress on its event stream, ending with done, for the prompt’s folder', async () => {
    app = await startCoreApp({ files: FILES })
    const abort = new AbortController()
    const res = await hostFetch(`${app.host.origin}/api/events`, { headers: { cookie: app.cookie }, signal: abort.signal })
    expect(res.status).toBe(200)
    const seen: { event: string; payload: { directory?: string; phase?: string } }[] = []
    const reading = (async () => {
      const decoder = new TextDecoder()
      let buf = ''
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true })
        for (let at = buf.indexOf('\n\n'); at !== -1; at = buf.indexOf('\n\n')) {
          const frame = buf.slice(0, at)
          buf = buf.slice(at + 2)
          if (frame.startsWith('data: ')) seen.push(JSON.parse(frame.slice(6)))
        }
      }
    })().catch(() => {})
    try {
      await prompt('hello')
      const deadline = Date.now() + 10_000
      while (!seen.some((e) => e.event === 'checkpoint.progress' && e.payload.phase === 'done')) {
        if (Date.now() > deadline) throw new Error(`no progress done event; saw ${JSON.stringify(seen.map((e) => e.event))}`)
        await new Promise((r) => setTimeout(r, 50))
      }
      const progress = seen.filter((e) => e.event === 'checkpoint.progress')
      expect(progress.every((e) => e.payload.directory === app!.project)).toBe(true)
      expect(progress.map((e) => e.payload.phase)).toContain('scan')
    } finally {
      abort.abort()
      await reading
    }
  })
})

describe('a turn whose end was never seen', () => {
  it('is sealed from the disk when its retake is planned (the session is idle), restores its files, and says so', async () => {
    app = await startCoreApp({ files: FILES })
    const s = await app.client.session.create({})
    const sessionID = s.data!.id
    // Retake captured before a prompt, then stopped before the session went idle (a crash): the
    // turn is open in the store, and nothing will ever seal it.
    await app.core.checkpoints.capture(app.project, sessionID, 'msg_unseen_end')
    writeFileSync(join(app.project, 'a.txt'), 'written by the turn that was cut short\n')
    writeFileSync(join(app.project, 'made.txt'), 'new\n')
    expect((await app.call('checkpoints.list', { directory: app.project, sessionID }))[0]!.status).toBe('open')

    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { turn: { sessionID, messageID: 'msg_unseen_end' } } })
    expect(plan.warnings.join('\n')).toMatch(/never seen .* sealed now from the files as they are/)
    expect(Object.fromEntries(plan.actions.map((a) => [a.path, a.kind]))).toEqual({ 'a.txt': 'restore', 'made.txt': 'delete' })
    const res = await app.call('checkpoints.apply', { directory: app.project, planId: plan.planId, onConflict: 'restore-rest', overwrite: [] })
    expect(res.status).toBe('done')
    expect(readFileSync(join(app.project, 'a.txt'), 'utf8')).toBe(FILES['a.txt'])
    expect(existsSync(join(app.project, 'made.txt'))).toBe(false)
  })
})

describe('undo survives', () => {
  it('a files-only restore can still be undone after the next prompt and after the app restarts', async () => {
    const root = mkdtempSync(join(tmpdir(), 'retake-undo-survives-'))
    app = await startCoreApp({ files: FILES, root })
    const { sessionID, userID } = await prompt('EDIT a.txt alpha ALPHA ; WRITE made.txt by the turn')
    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
    const res = await app.call('checkpoints.apply', { directory: app.project, planId: plan.planId, onConflict: 'restore-rest', overwrite: [] })
    expect(res.status).toBe('done')
    const restored = tree(app.project)
    await turn(sessionID, 'just talking')
    expect(await app.call('checkpoints.lastRestore', { directory: app.project, sessionID })).toMatchObject({ restoreId: res.restoreId, messageID: userID, rolledBack: true })

    // Quit and start again on the same data: the restore is still there to undo.
    await app.stop()
    app = await startCoreApp({ root })
    const last = await app.call('checkpoints.lastRestore', { directory: app.project, sessionID })
    expect(last).toMatchObject({ restoreId: res.restoreId, rolledBack: true })
    const undone = await app.call('checkpoints.undo', { directory: app.project, restoreId: last!.restoreId })
    expect(undone.status).toBe('done')
    expect(readFileSync(join(app.project, 'a.txt'), 'utf8')).not.toBe(FILES['a.txt'])
    expect(tree(app.project)).not.toEqual(restored)
    // The undo can be redone: the chain's top is now the undo.
    expect(await app.call('checkpoints.lastRestore', { directory: app.project, sessionID })).toMatchObject({ restoreId: undone.restoreId, rolledBack: false })
    await app.stop()
    app = undefined
    rmSync(root, { recursive: true, force: true })
  })
})
