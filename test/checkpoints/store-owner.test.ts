// Two processes, one store. One engine owns a store from open to close; a
// second opener — another app instance, a browser-mode host on the same data dir, or this process
// opening it twice — gets a clear error instead of colliding snapshot ids and a sweep that deletes
// blobs the first still needs. A dead owner's claim is stale, even when its pid now belongs to
// another live process.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CheckpointService } from '../../core/checkpoint-service'
import { openCheckpointStore } from '../../core/checkpoints/index'
import { StoreLock } from '../../core/checkpoints/store/lock'
import { processStartTime } from '../../core/process-identity'
import { startChild, workspace } from './helpers'

const HOLD = path.join(__dirname, 'children/hold-store.ts')
const ownerFile = (storeDir: string) => path.join(storeDir, 'owner')

describe('one owner per store (class 6)', () => {
  it('a second process is refused with a clear error while the first runs, and gets the store once it died', async () => {
    const w = await workspace()
    w.write('a.txt', 'mine')
    await w.store.capture('ses_me/msg_1')
    await w.store.close()
    const other = startChild(HOLD, [w.storeDir, w.ws])
    try {
      await other.waitFor('held')
      const refused = await openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }] }).catch((e) => e)
      expect(refused).toMatchObject({ code: 'EOWNED' })
      expect(String(refused.message)).toContain(`process ${other.pid}`)
      expect(String(refused.message)).toMatch(/another Retake window or browser-mode host/)
    } finally {
      await other.kill()
    }
    // The holder was killed (no close): its claim is stale, and both turns are there.
    const store = await w.reopen()
    expect(
      store
        .listTurns()
        .map((t) => t.turnKey.sessionID)
        .sort(),
    ).toEqual(['ses_me', 'ses_other'])
  })

  it('the same store opened twice in one process is refused until the first is closed', async () => {
    const w = await workspace()
    await expect(openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }] })).rejects.toMatchObject({ code: 'EOWNED' })
    await w.store.close()
    const again = await openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }] })
    w.store = again
    await again.capture('s/m1')
  })

  it('a claim whose pid was reused by an unrelated live process is stale (pid and start time are compared)', async () => {
    const w = await workspace()
    await w.store.close()
    // A live process that is not a Retake: the dead owner's pid now belongs to it.
    const stranger = spawn('sleep', ['60'])
    try {
      await new Promise((r) => stranger.once('spawn', r))
      const start = processStartTime(stranger.pid!)
      expect(start).not.toBeNull()
      const claim = { pid: stranger.pid, start: `${start}0`, host: os.hostname(), nonce: 'dead-owner', at: Date.now() - 86_400_000 }
      fs.writeFileSync(ownerFile(w.storeDir), JSON.stringify(claim))
      const store = await w.reopen()
      await store.capture('s/m1')
      // Its real start time, though, is a live owner.
      await store.close()
      fs.writeFileSync(ownerFile(w.storeDir), JSON.stringify({ ...claim, start }))
      await expect(openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }] })).rejects.toMatchObject({ code: 'EOWNED' })
    } finally {
      stranger.kill('SIGKILL')
    }
    fs.rmSync(ownerFile(w.storeDir))
    await w.reopen()
  })

  it('an owner file left half-written by a crash is refused while fresh and cleared once old', async () => {
    const w = await workspace()
    await w.store.close()
    fs.writeFileSync(ownerFile(w.storeDir), '{"pid":')
    await expect(openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }] })).rejects.toMatchObject({ code: 'EOWNED' })
    const old = new Date(Date.now() - 60_000)
    fs.utimesSync(ownerFile(w.storeDir), old, old)
    const store = await w.reopen()
    await store.capture('s/m1')
  })

  it('closing gives the store up: the owner file is gone, and a failed open leaves no claim behind', async () => {
    const w = await workspace()
    expect(fs.existsSync(ownerFile(w.storeDir))).toBe(true)
    await w.store.close()
    expect(fs.existsSync(ownerFile(w.storeDir))).toBe(false)
    fs.writeFileSync(path.join(w.storeDir, 'format.json'), JSON.stringify({ format: 'retake-checkpoints', version: 99 }))
    await expect(openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }] })).rejects.toMatchObject({ code: 'EFORMAT' })
    expect(fs.existsSync(ownerFile(w.storeDir))).toBe(false)
    fs.writeFileSync(path.join(w.storeDir, 'format.json'), JSON.stringify({ format: 'retake-checkpoints', version: 1 }))
    await w.reopen()
  })

  it('the app reopening its stores after a settings change waits for the old owner to let go', async () => {
    const w = await workspace()
    await w.store.close()
    const settings = { excludes: [], extraFolders: [] } as unknown as ReturnType<ConstructorParameters<typeof CheckpointService>[0]['settings']>
    const service = new CheckpointService({ dataDir: path.join(w.dir, 'app-data'), settings: () => settings })
    try {
      w.write('a.txt', 'one')
      await service.capture(w.ws, 'ses_1', 'msg_1')
      // Settings saved while a prompt arrives: the reset's close and the next capture's open race.
      const reset = service.reset()
      w.write('a.txt', 'two')
      await service.capture(w.ws, 'ses_1', 'msg_2')
      await reset
    } finally {
      await service.close()
    }
  })

  it('inside the owner, a hold of a moment (a plan’s look at the change journal) keeps every other operation out, and writes no lock file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-lock-'))
    try {
      const lock = new StoreLock(dir)
      await lock.acquire('plan', 0, false)
      expect(fs.readdirSync(dir)).toEqual([])
      await expect(lock.acquire('capture')).rejects.toMatchObject({ code: 'ELOCKED', message: expect.stringContaining('(plan)') })
      lock.release()
      // An operation that runs for a while says so in the store, and leaves nothing behind.
      await lock.acquire('capture')
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'lock'), 'utf8'))).toMatchObject({ purpose: 'capture', pid: process.pid })
      await expect(lock.acquire('plan', 0, false)).rejects.toMatchObject({ code: 'ELOCKED' })
      lock.release()
      expect(fs.readdirSync(dir)).toEqual([])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
