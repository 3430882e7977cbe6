/**
 * Two projects with one extra folder in common, against the real opencode server (only the LLM is
 * fake): while project 1's turn runs, project 2's turn writes into the shared folder. The projects
 * have separate checkpoint stores, so before, retaking project 1's turn took that file for its own
 * and deleted it. Now the retake rolls back only what project 1's turn wrote.
 */
import { mkdirSync, existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createOpencodeClient } from '@opencode-ai/sdk/v2/client'
import { afterEach, describe, expect, it } from 'vitest'
import { hostFetch } from '../support/host-fetch'
import { startCoreApp, waitSealed, type CoreApp } from '../support/core-fixture'

let app: CoreApp | undefined
afterEach(async () => {
  await app?.stop()
  app = undefined
})

describe('an extra folder shared by two projects', () => {
  it('retaking project 1’s turn keeps what project 2’s turn wrote there meanwhile, and rolls back its own', async () => {
    const root = mkdtempSync(join(tmpdir(), 'retake-shared-'))
    const extra = join(root, 'extra')
    const project2 = join(root, 'project2')
    mkdirSync(extra)
    mkdirSync(project2)
    app = await startCoreApp({ root, settings: { extraFolders: [{ path: extra, shared: false }] } })
    await app.call('projects.open', { path: app.project })
    await app.call('projects.open', { path: project2 })
    const client2 = createOpencodeClient({ baseUrl: `${app.host.origin}/opencode`, directory: project2, headers: { cookie: app.cookie }, fetch: hostFetch })

    // Project 1's turn writes extra/a.txt with its tool, then answers until project 2's turn is
    // done (a gate, not a pace: on a loaded machine project 2's turn outlasted a 5 s answer).
    let project2Done = (): void => undefined
    const holdUntil = new Promise<void>((r) => (project2Done = r))
    app.fake.script(
      { kind: 'tool', calls: [{ name: 'write', args: { filePath: join(extra, 'a.txt'), content: 'by project 1\n' } }] },
      { kind: 'text', text: 'a long answer from project 1', chunks: 20, chunkDelayMs: 50, holdUntil },
    )
    const s1 = (await app.client.session.create({})).data!.id
    const turn1 = app.client.session.prompt({ sessionID: s1, parts: [{ type: 'text', text: 'work in the shared folder' }] })
    const streaming = Date.now() + 30_000
    while (!existsSync(join(extra, 'a.txt')) || app.fake.chatRequests().length < 2) {
      if (Date.now() > streaming) throw new Error('project 1’s turn never started streaming')
      // Writing outside the project asks opencode's external_directory permission: the user allows it.
      const asked = (await app.client.permission.list()).data ?? []
      for (const p of asked) await app.client.permission.reply({ requestID: p.id, reply: 'once' })
      await new Promise((r) => setTimeout(r, 50))
    }

    // Meanwhile project 2's turn writes into the same folder.
    const s2 = (await client2.session.create({})).data!.id
    let answered = false
    const allow = (async () => {
      while (!answered) {
        for (const p of (await client2.permission.list()).data ?? []) await client2.permission.reply({ requestID: p.id, reply: 'once' })
        await new Promise((r) => setTimeout(r, 50))
      }
    })()
    const r2 = await client2.session.prompt({ sessionID: s2, parts: [{ type: 'text', text: `WRITE ${join(extra, 'b-work.txt')} made by project 2` }] })
    answered = true
    await allow
    project2Done()
    expect((r2.data!.info as { error?: unknown }).error).toBeUndefined()
    expect(readFileSync(join(extra, 'b-work.txt'), 'utf8')).toContain('made by project 2')

    const r1 = await turn1
    const userID = (r1.data!.info as { parentID: string }).parentID
    await waitSealed(app, s1, userID)

    const plan = await app.call('checkpoints.plan', { directory: app.project, target: { backTo: { sessionID: s1, messageID: userID } } })
    const byPath = Object.fromEntries(plan.actions.map((a) => [a.path, a]))
    expect(byPath['a.txt']?.kind).toBe('delete')
    expect(byPath['b-work.txt']).toMatchObject({ kind: 'not-this-turn', reason: expect.stringContaining(`session ${s2}`) })

    app.fake.script({ kind: 'text', text: 'retaken' })
    const out = await app.call('retake.run', {
      directory: app.project,
      sessionID: s1,
      clickedID: userID,
      model: { providerID: 'fake', modelID: 'echo-2' },
      files: { planId: plan.planId },
    })
    expect(out.status).toBe('done')
    expect(existsSync(join(extra, 'a.txt'))).toBe(false)
    expect(readFileSync(join(extra, 'b-work.txt'), 'utf8')).toContain('made by project 2')
  })
})
