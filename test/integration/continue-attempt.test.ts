/**
 * "Continue from this attempt" against the real opencode server (only the LLM is fake): a kept
 * attempt becomes the current branch again — the conversation the model sees and the files on
 * disk — and the branch it replaces is kept, so switching back and forth loses nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { hostPost as postTo } from '../../core/server/host-client'
import { startCoreApp, tree, waitSealed, type CoreApp } from '../support/core-fixture'

let app: CoreApp | undefined
afterEach(async () => {
  await app?.stop()
  app = undefined
})

const FILES = { 'a.txt': 'alpha\n', 'c.txt': 'charlie\n' }
const TURN1 = 'WRITE new.txt created by the agent ; EDIT a.txt alpha ALPHA ; BASH rm c.txt'
const TURN2 = 'WRITE second.txt from turn two'
const RETAKEN = 'WRITE retaken.txt the second attempt'
const ECHO2 = { providerID: 'fake', modelID: 'echo-2' }

type Msg = { info: { id: string; role: string }; parts: { type: string; text?: string }[] }
async function conversation(sessionID: string): Promise<string[]> {
  const list = (await app!.client.session.messages({ sessionID })).data as unknown as Msg[]
  return list.map(
    (m) =>
      `${m.info.id} ${m.info.role}: ${m.parts
        .filter((p) => p.type === 'text')
        .map((p) => p.text)
        .join('|')}`,
  )
}

async function prompt(sessionID: string, text: string): Promise<string> {
  const r = await app!.client.session.prompt({ sessionID, parts: [{ type: 'text', text }] })
  const userID = (r.data!.info as { parentID: string }).parentID
  await waitSealed(app!, sessionID, userID)
  return userID
}

async function continueFrom(sessionID: string, messageID: string, at: number, files: { overwrite?: string[] } = {}) {
  const plan = await app!.call('checkpoints.plan', { directory: app!.project, target: { backTo: { sessionID, messageID } } })
  return {
    plan,
    out: await app!.call('attempts.continue', { directory: app!.project, sessionID, messageID, at, files: { planId: plan.planId, overwrite: files.overwrite ?? [], keep: [] } }),
  }
}

/** A POST of the host's own to opencode (a route the window may not use), as the switch makes them. */
const hostPost = (path: string, body: unknown) => postTo(app!.core.connection, app!.project)(path, body)

/** A message written back the way opencode's after-turn summary does it: message.updated, after the session's last event. */
async function lateWrite(sessionID: string, info: unknown): Promise<void> {
  const events = (await hostPost('/sync/history', { [sessionID]: 0 })).json as { seq: number }[]
  const seq = Math.max(...events.map((e) => e.seq)) + 1
  const write = { id: `evt_${Date.now().toString(16)}late00000000`, aggregateID: sessionID, seq, type: 'message.updated.1', data: { sessionID, info } }
  expect((await hostPost('/sync/replay', { directory: app!.project, events: [write] })).status).toBe(200)
}

/** Two turns, then turn 1 retaken with another text and model: attempt A (both turns) is kept. */
async function retakenSession() {
  const sessionID = (await app!.client.session.create({})).data!.id
  const userID = await prompt(sessionID, TURN1)
  await prompt(sessionID, TURN2)
  const a = { files: tree(app!.project), talk: await conversation(sessionID) }
  const plan = await app!.call('checkpoints.plan', { directory: app!.project, target: { backTo: { sessionID, messageID: userID } } })
  const out = await app!.call('retake.run', { directory: app!.project, sessionID, clickedID: userID, model: ECHO2, files: { planId: plan.planId }, edit: { text: RETAKEN } })
  expect(out).toMatchObject({ status: 'done', messageID: userID })
  await waitSealed(app!, sessionID, userID)
  const c = { files: tree(app!.project), talk: await conversation(sessionID) }
  return { sessionID, userID, a, c }
}

describe('continue from an attempt', () => {
  it('brings back the attempt’s conversation and files exactly, keeps the branch it leaves, and switches back losslessly', async () => {
    app = await startCoreApp({ git: true, files: FILES })
    const initial = tree(app.project)
    const { sessionID, userID, a, c } = await retakenSession()
    expect(Object.keys(c.files).sort()).toEqual(['a.txt', 'c.txt', 'retaken.txt'])
    const [kept] = await app.call('attempts.list', { sessionID })
    expect(kept!.restoreId).toBeTruthy()

    const first = await continueFrom(sessionID, userID, kept!.at)
    expect(first.out, JSON.stringify(first.out)).toMatchObject({ status: 'done' })
    expect(tree(app.project)).toEqual(a.files)
    // The very messages, ids and texts of attempt A: turn 2 included.
    expect(await conversation(sessionID)).toEqual(a.talk)
    // The branch left behind is the one attempt now kept.
    const afterFirst = await app.call('attempts.list', { sessionID })
    expect(afterFirst).toHaveLength(1)
    expect((afterFirst[0]!.user as Msg).parts.map((p) => p.text)).toContain(RETAKEN)

    // The model continues from A's history.
    await prompt(sessionID, 'three')
    const seen = JSON.stringify(app.fake.chatRequests().at(-1)!.body.messages)
    expect(seen).toContain('from turn two')
    expect(seen).not.toContain('the second attempt')
    const aWithThree = await conversation(sessionID)

    // Back to the retaken branch: its files and conversation, and A (with turn 3) kept.
    const back = await continueFrom(sessionID, userID, afterFirst[0]!.at)
    expect(back.out).toMatchObject({ status: 'done' })
    expect(tree(app.project)).toEqual(c.files)
    expect(await conversation(sessionID)).toEqual(c.talk)
    // And to A again: nothing was lost on the way.
    const again = (await app.call('attempts.list', { sessionID }))[0]!
    expect((await continueFrom(sessionID, userID, again.at)).out).toMatchObject({ status: 'done' })
    expect(tree(app.project)).toEqual(a.files)
    expect(await conversation(sessionID)).toEqual(aWithThree)

    // A's own turn record came back with it: retaking turn 1 now rolls back what A's turns did.
    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
    app.fake.script({ kind: 'text', text: 'nothing to change' })
    expect(
      await app.call('retake.run', { directory: app.project, sessionID, clickedID: userID, model: ECHO2, files: { planId: plan.planId }, edit: { text: 'just talk' } }),
    ).toMatchObject({ status: 'done' })
    expect(tree(app.project)).toEqual(initial)
  })

  it('a late write of opencode’s own to the question between the switch’s delete and its replay still leaves the question first', async () => {
    // opencode computes a turn's summary after the turn (forked, not awaited) and writes the whole
    // question back with it: landing after the switch deleted the question, it brings the question
    // back as it was, with its own time, and the replay's rewrite keeps that time.
    let late: (() => Promise<void>) | undefined
    let target = ''
    app = await startCoreApp({
      git: true,
      files: FILES,
      core: {
        afterSwitchDelete: async (id) => {
          if (id === target) await late?.()
        },
      },
    })
    const { sessionID, userID, a } = await retakenSession()
    target = userID
    const question = (await app.client.session.message({ sessionID, messageID: userID })).data!.info
    late = async () => {
      late = undefined
      await lateWrite(sessionID, question)
    }
    const [kept] = await app.call('attempts.list', { sessionID })
    const first = await continueFrom(sessionID, userID, kept!.at)
    expect(first.out, JSON.stringify(first.out)).toMatchObject({ status: 'done' })
    expect(late).toBeUndefined()
    expect(await conversation(sessionID)).toEqual(a.talk)
    expect(tree(app.project)).toEqual(a.files)
  })

  it('a late write of opencode’s own to the question after the switch’s replay does not put the question after its answers in a later switch', async () => {
    app = await startCoreApp({ git: true, files: FILES })
    const { sessionID, userID, a, c } = await retakenSession()
    const question = (await app.client.session.message({ sessionID, messageID: userID })).data!.info
    const [kept] = await app.call('attempts.list', { sessionID })
    expect((await continueFrom(sessionID, userID, kept!.at)).out).toMatchObject({ status: 'done' })
    // The retaken turn's summary lands after the switch: the row keeps its place (a rewrite keeps
    // the stored time) but holds the retaken question's time, and the branch kept next records it.
    await lateWrite(sessionID, question)
    expect(await conversation(sessionID)).toEqual(a.talk)
    const left = (await app.call('attempts.list', { sessionID }))[0]!
    expect((await continueFrom(sessionID, userID, left.at)).out).toMatchObject({ status: 'done' })
    expect(await conversation(sessionID)).toEqual(c.talk)
    const again = (await app.call('attempts.list', { sessionID }))[0]!
    const out = (await continueFrom(sessionID, userID, again.at)).out
    expect(out, JSON.stringify(out)).toMatchObject({ status: 'done' })
    expect(await conversation(sessionID)).toEqual(a.talk)
    expect(tree(app.project)).toEqual(a.files)
  })

  it('offers a file the user edited since as a conflict and keeps the user’s version unless told otherwise', async () => {
    app = await startCoreApp({ git: true, files: FILES })
    const { sessionID, userID, a } = await retakenSession()
    writeFileSync(join(app.project, 'retaken.txt'), 'my own words\n')
    const [kept] = await app.call('attempts.list', { sessionID })
    const { plan, out } = await continueFrom(sessionID, userID, kept!.at)
    expect(plan.actions.find((x) => x.path === 'retaken.txt')?.kind).toBe('conflict')
    expect(out).toMatchObject({ status: 'done' })
    expect(readFileSync(join(app.project, 'retaken.txt'), 'utf8')).toBe('my own words\n')
    // Everything else is attempt A's.
    const { 'retaken.txt': _mine, ...rest } = tree(app.project)
    expect(rest).toEqual(a.files)
  })

  it('a switch cut off while it rewrote the conversation is finished by continuing again: attempt A exactly, the branch kept once', async () => {
    let deletes = 0
    let cut = true
    app = await startCoreApp({
      git: true,
      files: FILES,
      core: {
        afterSwitchDelete: () => {
          if (cut && ++deletes === 2) throw new Error('connection lost')
        },
      },
    })
    const { sessionID, userID, a, c } = await retakenSession()
    const [kept] = await app.call('attempts.list', { sessionID })
    const first = await continueFrom(sessionID, userID, kept!.at)
    expect(first.out).toEqual({ status: 'failed', error: 'connection lost' })
    // Half-way: the files are A's already, the conversation is neither branch.
    expect(tree(app.project)).toEqual(a.files)
    const half = await conversation(sessionID)
    expect([half.length < c.talk.length, half.length < a.talk.length]).toEqual([true, true])
    // The window is told (it offers to finish the switch).
    expect((await app.call('attempts.list', { sessionID })).find((x) => x.at === kept!.at)?.switching).toBe(true)
    cut = false
    // The window has no plan to offer for a question that is gone: the conversation is finished alone.
    const again = await app.call('attempts.continue', { directory: app.project, sessionID, messageID: userID, at: kept!.at })
    expect(again).toMatchObject({ status: 'done', kept: null, rollback: null, filesBack: null })
    expect(await conversation(sessionID)).toEqual(a.talk)
    expect(tree(app.project)).toEqual(a.files)
    // The branch left behind is kept once, whole.
    const left = await app.call('attempts.list', { sessionID })
    expect(left).toHaveLength(1)
    expect((left[0]!.user as Msg).parts.map((p) => p.text)).toContain(RETAKEN)
  })

  it('refuses an attempt that is not kept, changing nothing', async () => {
    app = await startCoreApp({ git: true, files: FILES })
    const { sessionID, userID, c } = await retakenSession()
    const out = await app.call('attempts.continue', { directory: app.project, sessionID, messageID: userID, at: 1 })
    expect(out).toEqual({ status: 'failed', error: 'That attempt is no longer kept' })
    expect(tree(app.project)).toEqual(c.files)
    expect(await conversation(sessionID)).toEqual(c.talk)
    // The calls that rewrite a conversation are the host's own: the window's proxy refuses them.
    const fromWindow = await app.client.session.deleteMessage({ sessionID, messageID: userID })
    expect(fromWindow.response.status).toBe(403)
    expect(await conversation(sessionID)).toEqual(c.talk)
  })
})
