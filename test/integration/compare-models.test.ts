/**
 * "Retake with several models" against the real opencode server (only the LLM is fake): the turn
 * runs on each model in turn from the same files, each run is kept as an attempt with what it did
 * on disk, and any one of them can be kept (continued from).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startCoreApp, waitSealed, type CoreApp } from '../support/core-fixture'

let app: CoreApp | undefined
afterEach(async () => {
  await app?.stop()
  app = undefined
})

/** The model writes its own file, then says so. */
function scriptWriter(modelID: string, file: string) {
  app!.fake.script({ kind: 'tool', calls: [{ name: 'write', args: { filePath: join(app!.project, file), content: `by ${modelID}\n` } }], model: modelID })
  app!.fake.script({ kind: 'text', text: `${modelID} wrote ${file}`, model: modelID })
}

describe('retake with several models', () => {
  it('runs the turn on each model from the same files, keeps each run as an attempt, and keeps the one chosen', async () => {
    app = await startCoreApp({ git: true, files: { 'readme.txt': 'hi\n' } })
    const has = (f: string) => existsSync(join(app!.project, f))
    const sessionID = (await app.client.session.create({})).data!.id
    const r = await app.client.session.prompt({ sessionID, parts: [{ type: 'text', text: 'WRITE base.txt from the first answer' }] })
    const userID = (r.data!.info as { parentID: string }).parentID
    await waitSealed(app, sessionID, userID)
    expect(has('base.txt')).toBe(true)

    scriptWriter('echo-2', 'two.txt')
    scriptWriter('echo-noimg', 'three.txt')
    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
    const models = [
      { providerID: 'fake', modelID: 'echo-2' },
      { providerID: 'fake', modelID: 'echo-noimg' },
    ]
    const out = await app.call('retake.compare', {
      directory: app.project,
      sessionID,
      clickedID: userID,
      models,
      files: { planId: plan.planId, overwrite: [], keep: [] },
      skipCheckpoint: false,
    })
    expect(out.runs.map((x) => x.outcome.status)).toEqual(['done', 'done'])
    // The last run is current, and it ran from the same files as the first: nothing of the others.
    expect([has('base.txt'), has('two.txt'), has('three.txt')]).toEqual([false, false, true])

    // Each earlier run is an attempt with what it did on disk.
    const kept = out.runs[1]!.outcome.status === 'done' ? out.runs[1]!.outcome.keptAt : undefined
    const attempts = await app.call('attempts.list', { sessionID })
    const echo2 = attempts.find((a) => a.at === kept)!
    expect(echo2.model).toEqual(models[0])
    const changed = await app.call('checkpoints.restoreChanges', { directory: app.project, restoreId: echo2.restoreId! })
    expect(changed.map((c) => [c.path, c.change])).toEqual([['two.txt', 'added']])
    const original = attempts.find((a) => a.at !== kept)!
    expect((await app.call('checkpoints.restoreChanges', { directory: app.project, restoreId: original.restoreId! })).map((c) => c.path)).toEqual(['base.txt'])

    // Keep echo-2's: its conversation and files become current.
    await waitSealed(app, sessionID, userID)
    const back = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID, messageID: userID } } })
    const chosen = await app.call('attempts.continue', {
      directory: app.project,
      sessionID,
      messageID: userID,
      at: echo2.at,
      files: { planId: back.planId, overwrite: [], keep: [] },
    })
    expect(chosen).toMatchObject({ status: 'done' })
    expect([has('base.txt'), has('two.txt'), has('three.txt')]).toEqual([false, true, false])
    const talk = (await app.client.session.messages({ sessionID })).data!
    expect(JSON.stringify(talk.at(-1)!.parts)).toContain('echo-2 wrote two.txt')
  })
})
