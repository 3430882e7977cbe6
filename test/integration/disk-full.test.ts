/**
 * A full disk, through the app (real opencode server, fake LLM): the disk
 * holding Retake's checkpoints fills up. The prompt is refused with an error that says so — never
 * sent silently without a checkpoint — the store keeps nothing of the failed capture, the user can
 * send knowingly without one, and once there is space again prompts are checkpointed as before.
 * The full disk is made with the engine's store-write seam (CI cannot always mount a tiny tmpfs;
 * test/checkpoints/disk-full.test.ts also runs on a real one where it can).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { startCoreApp, type CoreApp } from '../support/core-fixture'

let app: CoreApp | undefined
afterEach(async () => {
  await app?.stop()
  app = undefined
})

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name)
      if (statSync(p).isDirectory()) {
        out[relative(dir, p) + '/'] = 'dir'
        walk(p)
      } else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex')
    }
  }
  walk(dir)
  return out
}

async function turnsOf(sessionID: string) {
  return app!.call('checkpoints.list', { directory: app!.project, sessionID })
}

/** The host seals a turn when it sees the session go idle on its own event stream. */
async function sealed(sessionID: string, messageID: string) {
  const deadline = Date.now() + 20_000
  while ((await turnsOf(sessionID)).find((t) => t.messageID === messageID)?.status !== 'sealed') {
    if (Date.now() > deadline) throw new Error(`turn ${messageID} never sealed`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('the disk holding the checkpoints is full', () => {
  it('the prompt is refused saying so, nothing is kept or sent; sent on request without a checkpoint; checkpointed again once there is space', async () => {
    app = await startCoreApp({ files: { 'a.txt': 'alpha\n', 'big.bin': 'x'.repeat(3 << 20) } })
    const s = await app.client.session.create({})
    const sessionID = s.data!.id
    const first = await app.client.session.prompt({ sessionID, parts: [{ type: 'text', text: 'WRITE b.txt first turn' }] })
    expect(first.response?.status).toBe(200)
    await sealed(sessionID, (first.data!.info as { parentID: string }).parentID)
    const storeDir = app.core.checkpoints.storeDir(app.project)
    const requestsBefore = app.fake.chatRequests().length
    const messagesBefore = (await app.client.session.messages({ sessionID })).data!.length
    const turnsBefore = await turnsOf(sessionID)

    // The next turn has new content to store; the disk takes only a few more kilobytes.
    writeFileSync(join(app.project, 'big.bin'), 'y'.repeat(3 << 20))
    const before = tree(storeDir)
    // The engine runs in its own thread: the limit is set there.
    await app.core.checkpoints.engine.limitStoreSpace(4096)
    const refused = await app.client.session.promptAsync({ sessionID, parts: [{ type: 'text', text: 'second turn' }] })
    expect(refused.response?.status).toBe(409)
    expect(refused.error).toMatchObject({
      name: 'CheckpointFailed',
      data: { message: expect.stringMatching(/could not record a checkpoint.*the disk is full.*Nothing was recorded.*send without a checkpoint/s) },
    })
    expect(app.fake.chatRequests()).toHaveLength(requestsBefore)
    expect((await app.client.session.messages({ sessionID })).data).toHaveLength(messagesBefore)
    expect(tree(storeDir)).toEqual(before)
    expect(await turnsOf(sessionID)).toEqual(turnsBefore)

    // The user chooses to send anyway: it goes through, with no checkpoint recorded for it.
    const skipped = await app.client.session.prompt({ sessionID, parts: [{ type: 'text', text: 'second turn' }] }, { headers: { 'x-retake-checkpoint': 'skip' } })
    expect(skipped.response?.status).toBe(200)
    expect(app.fake.chatRequests().at(-1)!.lastUserText()).toBe('second turn')
    const skippedID = (skipped.data!.info as { parentID: string }).parentID
    expect((await turnsOf(sessionID)).map((t) => t.messageID)).not.toContain(skippedID)

    // Space is back: the next prompt is checkpointed (not refused as busy by a stuck lock).
    await app.core.checkpoints.engine.limitStoreSpace(null)
    const third = await app.client.session.prompt({ sessionID, parts: [{ type: 'text', text: 'third turn' }] })
    expect(third.response?.status).toBe(200)
    const thirdID = (third.data!.info as { parentID: string }).parentID
    expect((await turnsOf(sessionID)).map((t) => t.messageID)).toContain(thirdID)
  })
})
