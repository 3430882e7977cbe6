/**
 * The checkpoint engine in its own thread, as the app's service runs it (real files, no mocks):
 * the host keeps answering while a large first capture walks and hashes, and a thread that dies
 * fails what it ran with a clear error and is replaced on the next use, whose open completes a
 * restore the death cut off.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CheckpointService } from '../../core/checkpoint-service'
import { CheckpointError } from '../../core/checkpoints'
import type { Settings } from '../../shared/ipc-contract'

const roots: string[] = []
const services: CheckpointService[] = []

function setup(): { project: string; service: CheckpointService } {
  const root = mkdtempSync(join(tmpdir(), 'retake-thread-'))
  roots.push(root)
  const project = join(root, 'project')
  mkdirSync(project)
  const settings = { excludes: [], extraFolders: [] } as unknown as Settings
  const service = new CheckpointService({ dataDir: join(root, 'data'), settings: () => settings })
  services.push(service)
  return { project, service }
}

/** `dirs` folders of 100 small text files each. */
function writeTree(at: string, dirs: number): void {
  for (let d = 0; d < dirs; d++) {
    mkdirSync(join(at, `d${d}`), { recursive: true })
    for (let f = 0; f < 100; f++) writeFileSync(join(at, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`.repeat(20))
  }
}

// Removing 40,000 files takes a while on a busy disk.
afterEach(async () => {
  for (const s of services.splice(0)) await s.close()
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true })
}, 180_000)

describe('the checkpoint engine in its own thread', () => {
  it('keeps the host answering while a 40,000-file first capture runs', async () => {
    const { project, service } = setup()
    // 40,000 files: 2–4 s of walking and hashing. Run in the host's thread, the engine held its
    // event loop for up to 1.4 s at a time here (the timer fired 1,440 ms late).
    writeTree(project, 400)
    await service.store(project) // the thread is up and the store open: what is timed is the capture
    const TICK_MS = 5
    const lags: number[] = []
    let last = performance.now()
    const timer = setInterval(() => {
      const now = performance.now()
      lags.push(Math.max(0, now - last - TICK_MS))
      last = now
    }, TICK_MS)
    const started = performance.now()
    try {
      const r = await service.capture(project, 'ses_big', 'msg_first')
      expect(r.filesScanned).toBeGreaterThanOrEqual(40_000)
    } finally {
      clearInterval(timer)
    }
    const ms = performance.now() - started
    const sorted = [...lags].sort((a, b) => a - b)
    const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? Infinity
    const worst = sorted.at(-1) ?? Infinity
    const seen = `the host's timer ticked ${lags.length} times in a ${ms.toFixed(0)} ms capture, 95% within ${p95.toFixed(1)} ms, the worst ${worst.toFixed(1)} ms late`
    // The 95th percentile, not the worst: with two cores shared by other test runs, a thread that
    // waits on nothing still waits for a core now and then. In-process the worst was 1,440 ms.
    expect(p95, seen).toBeLessThan(50)
    expect(worst, seen).toBeLessThan(500)
  }, 300_000)

  it('keeps the engine’s error codes across, and refuses a malformed call before acting', async () => {
    const { project, service } = setup()
    writeFileSync(join(project, 'a.txt'), 'a\n')
    const store = await service.store(project)
    const unknown = await store.seal('ses_x/msg_never').catch((err: unknown) => err)
    expect(unknown).toBeInstanceOf(CheckpointError)
    expect(unknown).toMatchObject({ code: 'EUNKNOWN_TURN' })
    // A plan the engine never made is refused, nothing touched.
    await expect(store.apply({ planId: 'made-up', actions: [] } as never, {})).resolves.toMatchObject({
      status: 'cancelled',
      applied: [],
      warnings: ['unknown or expired plan; make a new plan'],
    })
    // Arguments that do not match the contract never reach the engine.
    await expect((store.forkSession as (...xs: unknown[]) => Promise<number>)(42, {})).rejects.toThrow(/bad arguments for forkSession/)
    expect(await store.listTurns()).toEqual([])
  })

  it('reports a dead thread clearly and carries on in a fresh one', async () => {
    const { project, service } = setup()
    writeTree(project, 50)
    await service.capture(project, 'ses_a', 'msg_1')
    const first = service.engine.thread!
    const running = service.capture(project, 'ses_b', 'msg_1')
    await first.terminate()
    await expect(running).rejects.toMatchObject({ code: 'ECLOSED', message: expect.stringContaining('The checkpoint engine stopped') })
    // The next use opens the store in a fresh thread (the dead one's ownership is let go).
    writeFileSync(join(project, 'later.txt'), 'later\n')
    const again = await service.capture(project, 'ses_c', 'msg_1')
    expect(again.created).toBe(true)
    expect(service.engine.thread).not.toBe(first)
    const turns = await (await service.store(project)).listTurns()
    expect(turns.map((t) => t.turnKey.sessionID)).toContain('ses_a')
  })

  it('completes a restore cut off by the thread dying when the store reopens', async () => {
    const { project, service } = setup()
    writeFileSync(join(project, 'keep.txt'), 'kept\n')
    const turn = { sessionID: 'ses_install', messageID: 'msg_1' }
    await service.capture(project, turn.sessionID, turn.messageID)
    // 15,000 files the turn added: their deletes take long enough for the kill to land among them.
    writeTree(join(project, 'node_modules_like'), 150)
    await service.sealSession(project, turn.sessionID)
    const plan = await service.plan(project, { turnKey: turn })
    const added = join(project, 'node_modules_like')
    const applying = service.apply(project, plan.planId, { onConflict: 'restore-rest' })
    // Wait until the restore is deleting (its intent is durable before the first step), then kill
    // the thread among its steps.
    const deleting = () => Array.from({ length: 150 }, (_, d) => join(added, `d${d}`, 'f0.txt')).some((f) => !existsSync(f))
    while (!deleting()) await new Promise((r) => setImmediate(r))
    await service.engine.thread!.terminate()
    await expect(applying).rejects.toMatchObject({ code: 'ECLOSED' })
    const store = await service.store(project)
    expect(store.recovered.length).toBeGreaterThan(0)
    expect(existsSync(added)).toBe(false)
    expect(existsSync(join(project, 'keep.txt'))).toBe(true)
    expect((await store.listTurns(turn.sessionID))[0]?.status).toBe('restored')
  })
})
