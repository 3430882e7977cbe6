// The disk holding the store fills up during the capture before
// a prompt. Before the fix the partial capture (packs, blobs, a snapshot) stayed in the store,
// keeping the disk full, a lock file that could not be filled refused every later capture as
// "busy", and a pack cut mid-write misplaced the next blob. Now the store is left exactly as it
// was, the error says what happened, and the next capture works once there is space again.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openCheckpointStore } from '../../core/checkpoints/index'
import { isOutOfSpace, outOfSpaceError, spaceLeft, type SpaceGate } from '../../core/checkpoints/store/store-space'
import { seededBytes, sha, workspace, type Ws } from './helpers'

/** The disk as the test has it now (null: the real one), given to each store at open. */
let limit: SpaceGate | null = null
const spaceGate: SpaceGate = (w) => (limit ? limit(w) : w.bytes)
afterEach(() => {
  limit = null
})

/** Every file and folder of the store with its content's hash: "exactly as before" made checkable. */
function storeTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      const rel = path.relative(dir, p)
      if (e.isDirectory()) {
        out[rel + '/'] = 'dir'
        walk(p)
      } else out[rel] = sha(fs.readFileSync(p))
    }
  }
  walk(dir)
  return out
}

/** The disk fills up in the middle of the first write to a file matching `re`. */
const fullAt =
  (re: RegExp): SpaceGate =>
  (w) =>
    re.test(w.file) ? Math.floor(w.bytes / 2) : w.bytes

async function turnOne(): Promise<Ws> {
  const w = await workspace({ spaceGate })
  for (let i = 0; i < 20; i++) w.write(`src/f${i}.txt`, `file ${i} v1\n`.repeat(50))
  w.write('big.bin', seededBytes(1, 1.5 * 1024 * 1024))
  await w.store.capture('s/m1')
  w.write('src/f0.txt', 'changed by turn one\n')
  await w.store.seal('s/m1')
  // What the next turn starts from: new small files (packs), a new large one (a loose blob).
  for (let i = 0; i < 20; i++) w.write(`src/f${i}.txt`, `file ${i} v2\n`.repeat(400))
  w.write('big.bin', seededBytes(2, 1.5 * 1024 * 1024))
  w.write('new/added.txt', 'added before turn two\n')
  return w
}

describe('the disk fills up during a capture', () => {
  const points: [string, SpaceGate][] = [
    ['the lock file', fullAt(/[\\/]lock$/)],
    ['a pack', fullAt(/\.pack$/)],
    ['a pack index', fullAt(/\.idx$/)],
    ['a large blob', fullAt(/[\\/]tmp[\\/]/)],
    ['the snapshot', fullAt(/[\\/]snapshots[\\/]/)],
    ['the turn record', fullAt(/[\\/]turns[\\/]/)],
    ['no space at all', spaceLeft(0)],
    ['after 30 KB', spaceLeft(30_000)],
    ['after 1 MB', spaceLeft(1 << 20)],
  ]

  it.each(points)('at %s: the partial capture is removed, the error says so, and the next capture and its restore work', async (_name, gate) => {
    const w = await turnOne()
    const before = storeTree(w.storeDir)
    limit = gate
    const failed = await w.store.capture('s/m2').then(
      () => null,
      (e: unknown) => e,
    )
    expect(failed).toMatchObject({ code: 'ENOSPC', message: expect.stringMatching(/disk is full.*Nothing was recorded.*send without a checkpoint/s) })
    // Exactly as before: no blob, pack bytes, snapshot, turn record, temp or lock file left.
    expect(storeTree(w.storeDir)).toEqual(before)
    expect(w.store.listTurns('s').map((t) => t.turnKey.messageID)).toEqual(['m1'])

    // Space is back: the same prompt's capture works at once (not "busy"), and restores.
    limit = null
    const want = { big: w.sha('big.bin'), f5: w.text('src/f5.txt') }
    const ok = await w.store.capture('s/m2')
    expect(ok.created).toBe(true)
    w.write('big.bin', 'the turn replaced it')
    w.write('src/f5.txt', 'the turn edited it')
    fs.rmSync(w.p('new/added.txt'))
    await w.store.seal('s/m2')
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m2' }))
    expect(res.failed).toEqual([])
    expect(w.sha('big.bin')).toBe(want.big)
    expect(w.text('src/f5.txt')).toBe(want.f5)
    expect(w.text('new/added.txt')).toBe('added before turn two\n')
    // Every blob any checkpoint refers to reads back intact, also after a reopen.
    expect((await w.store.verify()).ok).toBe(true)
    await w.reopen()
    expect((await w.store.verify()).ok).toBe(true)
  })

  it('a seal that runs out of space leaves the turn open and the store as it was; a later seal closes it', async () => {
    const w = await turnOne()
    await w.store.capture('s/m2')
    w.write('src/f1.txt', 'written by turn two\n'.repeat(1000))
    const before = storeTree(w.storeDir)
    limit = spaceLeft(100)
    await expect(w.store.seal('s/m2')).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(storeTree(w.storeDir)).toEqual(before)
    expect(w.store.listTurns('s').find((t) => t.turnKey.messageID === 'm2')?.status).toBe('open')
    limit = null
    await w.store.seal('s/m2')
    const plan = await w.store.plan({ turnKey: 's/m2' })
    expect(plan.actions.find((a) => a.path === 'src/f1.txt')?.kind).toBe('restore')
  })

  it('a full quota (EDQUOT) is reported like a full disk', () => {
    const quota = Object.assign(new Error('EDQUOT: disk quota exceeded'), { code: 'EDQUOT' })
    expect(isOutOfSpace(quota)).toBe(true)
    expect(outOfSpaceError('/data/checkpoints/x', quota)).toMatchObject({
      code: 'ENOSPC',
      message: expect.stringMatching(/^your disk quota is used up where Retake keeps its checkpoints/),
    })
  })
})

// A real full disk: the store on a 3 MB tmpfs. Needs mount rights (root in a container that allows
// it); the seam above covers every write point everywhere else.
const mountable = (() => {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-mnt-probe-'))
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { encoding: 'utf8' })
  if (r.status === 0) spawnSync('umount', [probe])
  fs.rmdirSync(probe)
  if (r.status !== 0) console.warn(`[disk-full] real tmpfs test skipped: cannot mount a tmpfs here (${(r.stderr || r.error?.message || '').trim()})`)
  return r.status === 0
})()

describe.skipIf(!mountable)('on a real, tiny file system', () => {
  it('a capture too large for the disk frees every byte it wrote; after the disk grows it captures', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-full-'))
    const ws = path.join(dir, 'ws')
    const mnt = path.join(dir, 'mnt')
    fs.mkdirSync(ws)
    fs.mkdirSync(mnt)
    for (let i = 0; i < 12; i++) fs.writeFileSync(path.join(ws, `small${i}.bin`), seededBytes(i + 1, 200_000))
    fs.writeFileSync(path.join(ws, 'large.bin'), seededBytes(99, 3 << 20))
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mnt]).status).toBe(0)
    let store: Awaited<ReturnType<typeof openCheckpointStore>> | null = null
    try {
      const storeDir = path.join(mnt, 'store')
      store = await openCheckpointStore({ storeDir, roots: [{ path: ws }] })
      const before = storeTree(storeDir)
      const freeBefore = fs.statfsSync(mnt).bfree
      const err = await store.capture('s/m1').catch((e: unknown) => e)
      expect(err).toMatchObject({ code: 'ENOSPC', message: expect.stringContaining('disk is full') })
      expect(storeTree(storeDir)).toEqual(before)
      expect(fs.statfsSync(mnt).bfree).toBe(freeBefore)

      expect(spawnSync('mount', ['-o', 'remount,size=32m', mnt]).status).toBe(0)
      const ok = await store.capture('s/m1')
      expect(ok.created).toBe(true)
      expect((await store.verify()).ok).toBe(true)
    } finally {
      await store?.close()
      spawnSync('umount', [mnt])
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
