/**
 * "Fork from here" against the real opencode server (only the LLM is fake): the new session holds
 * the conversation up to the chosen turn; with "a folder of its own" it works in a new folder that
 * holds the project as that turn left it, while the original session's files stay untouched.
 */
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client'
import { hostFetch } from '../support/host-fetch'
import { afterEach, describe, expect, it } from 'vitest'
import { startCoreApp, tree, waitSealed, type CoreApp } from '../support/core-fixture'

let app: CoreApp | undefined
afterEach(async () => {
  await app?.stop()
  app = undefined
})

type Msg = { info: { id: string; role: string }; parts: { type: string; text?: string }[] }
async function prompt(sessionID: string, text: string): Promise<string> {
  const r = await app!.client.session.prompt({ sessionID, parts: [{ type: 'text', text }] })
  const userID = (r.data!.info as { parentID: string }).parentID
  await waitSealed(app!, sessionID, userID)
  return userID
}
const asked = async (client: CoreApp['client'], sessionID: string) =>
  ((await client.session.messages({ sessionID })).data as unknown as Msg[]).filter((m) => m.info.role === 'user').map((m) => m.parts.find((p) => p.type === 'text')?.text)

/** A client through Retake's proxy for another folder (as the window does after switching project). */
function clientFor(directory: string) {
  return createOpencodeClient({ baseUrl: `${app!.host.origin}/opencode`, directory, headers: { cookie: app!.cookie }, fetch: hostFetch })
}

for (const git of [false, true]) {
  describe(`fork from a turn, ${git ? 'a git project (a worktree)' : 'a plain folder (a copy)'}`, () => {
    it('puts the fork in a folder of its own with that turn’s files; its turns change only that folder', async () => {
      app = await startCoreApp({ git, files: { 'readme.txt': 'hello\n' } })
      const sessionID = (await app.client.session.create({})).data!.id
      const first = await prompt(sessionID, 'WRITE one.txt from turn one')
      await prompt(sessionID, 'WRITE two.txt from turn two')
      const original = tree(app.project)
      const folder = join(app.root, 'fork-here')

      const out = await app.call('sessions.fork', { directory: app.project, sessionID, turnID: first, files: 'folder', folder })
      if (out.status !== 'done') throw new Error(out.error)
      expect(out.directory).toBe(folder)
      expect(out.skipped).toEqual([])
      expect(tree(folder)).toEqual({ 'readme.txt': original['readme.txt'], 'one.txt': original['one.txt'] })
      const fork = clientFor(folder)
      expect(await asked(fork, out.sessionID)).toEqual(['WRITE one.txt from turn one'])
      // The copied turn says where it ran (the original folder): the renderer reads its tool paths
      // relative to that, so the fork shows `one.txt`, not the original folder's absolute path.
      const copied = ((await fork.session.messages({ sessionID: out.sessionID })).data as unknown as { info: { role: string; path?: { cwd: string } } }[]).find(
        (m) => m.info.role === 'assistant',
      )
      expect(realpathSync(copied!.info.path!.cwd)).toBe(realpathSync(app.project))

      await fork.session.prompt({ sessionID: out.sessionID, parts: [{ type: 'text', text: 'WRITE three.txt in the fork' }] })
      expect(existsSync(join(folder, 'three.txt'))).toBe(true)
      expect(tree(app.project)).toEqual(original)
      expect(await asked(app.client, sessionID)).toEqual(['WRITE one.txt from turn one', 'WRITE two.txt from turn two'])
      // The fork's folder is offered with the recent projects.
      expect((await app.call('projects.recent', {})).map((p) => p.path)).toContain(folder)
    })
  })
}

/** Two turns (one.txt, two.txt), then a fork from the first leaving the files where they are. */
async function forkedAfterTurnOne() {
  const started = await startCoreApp({ git: true, files: { 'readme.txt': 'hello\n' } })
  app = started
  const sessionID = (await started.client.session.create({})).data!.id
  const first = await prompt(sessionID, 'WRITE one.txt from turn one')
  await prompt(sessionID, 'WRITE two.txt from turn two')
  const out = await started.call('sessions.fork', { directory: started.project, sessionID, turnID: first, files: 'leave' })
  if (out.status !== 'done') throw new Error(out.error)
  return { first, out, app: started }
}

describe('fork from a turn, files left as they are', () => {
  it('forks the conversation in the same folder, with the copied turns’ checkpoints', async () => {
    const { out, app } = await forkedAfterTurnOne()
    expect(out.directory).toBe(app.project)
    expect(await asked(app.client, out.sessionID)).toEqual(['WRITE one.txt from turn one'])
    const turns = await app.call('checkpoints.list', { directory: app.project, sessionID: out.sessionID })
    expect(turns.map((t) => t.changes.map((c) => c.path))).toEqual([['one.txt']])
  })

  it('the fork’s copied turn has its checkpoint under the fork’s own message id: a retake there rolls back its files', async () => {
    const { first, out, app } = await forkedAfterTurnOne()
    const forkUser = ((await app.client.session.messages({ sessionID: out.sessionID })).data as unknown as Msg[]).find((m) => m.info.role === 'user')!.info.id
    // opencode gives the fork's messages ids of their own: the copy is found under the fork's.
    expect(forkUser).not.toBe(first)
    const turns = await app.call('checkpoints.list', { directory: app.project, sessionID: out.sessionID })
    expect(turns.map((t) => [t.messageID, t.changes.map((c) => c.path)])).toEqual([[forkUser, ['one.txt']]])
    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID: out.sessionID, messageID: forkUser } } })
    expect(plan.warnings).toEqual([])
    expect(plan.actions.map((a) => `${a.kind}:${a.path}`)).toEqual(['delete:one.txt'])
    app.fake.script({ kind: 'text', text: 'fine, nothing to change' })
    const model = { providerID: 'fake', modelID: 'echo-2' }
    const retaken = await app.call('retake.run', { directory: app.project, sessionID: out.sessionID, clickedID: forkUser, model, files: { planId: plan.planId } })
    if (retaken.status !== 'done') throw new Error(`retake failed at ${retaken.step}: ${retaken.error}`)
    expect(retaken.restore?.status).toBe('done')
    expect(Object.keys(tree(app.project)).sort()).toEqual(['readme.txt', 'two.txt'])
  })

  it('refuses a folder that is not empty, and makes no session', async () => {
    app = await startCoreApp({ files: { 'readme.txt': 'hello\n' } })
    const sessionID = (await app.client.session.create({})).data!.id
    const first = await prompt(sessionID, 'WRITE one.txt from turn one')
    const busy = join(app.root, 'busy')
    mkdirSync(busy)
    writeFileSync(join(busy, 'mine.txt'), 'my work')
    const before = ((await app.client.session.list({})).data ?? []).length
    const out = await app.call('sessions.fork', { directory: app.project, sessionID, turnID: first, files: 'folder', folder: busy })
    expect(out).toEqual({ status: 'failed', error: `${busy} already exists and is not an empty folder: nothing there is overwritten` })
    expect(readdirSync(busy)).toEqual(['mine.txt'])
    expect(((await app.client.session.list({})).data ?? []).length).toBe(before)
  })
})
