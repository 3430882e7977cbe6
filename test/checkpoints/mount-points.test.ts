// A folder of the plan that became a mount point since the checkpoint (a shared cache bind-mounted
// over it, a tmpfs) is another file system's: the plan says "on another file system now: left as
// it is" before the user confirms, and no restore writes into it or empties it — nor one during
// which the mount appears (the other process, children/race-actor.ts, mounts as soon as the
// restore's first delete is done). Needs mount rights (root in a container that allows it):
// skipped with the reason printed elsewhere.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { clockPast, REPO, startChild, workspace } from './helpers'

const ACTOR = path.join(REPO, 'test/checkpoints/children/race-actor.ts')

const mountable = (() => {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-bind-probe-'))
  fs.mkdirSync(path.join(probe, 'a'))
  fs.mkdirSync(path.join(probe, 'b'))
  const r = spawnSync('mount', ['--bind', path.join(probe, 'a'), path.join(probe, 'b')], { encoding: 'utf8' })
  if (r.status === 0) spawnSync('umount', [path.join(probe, 'b')])
  fs.rmSync(probe, { recursive: true, force: true })
  if (r.status !== 0) console.warn(`[mount-points] skipped: cannot bind-mount here (${(r.stderr || r.error?.message || '').trim()})`)
  return r.status === 0
})()

// Unmounted before anything is removed: a recursive delete through a mount empties what it shows.
const mounts: string[] = []
const stops: (() => Promise<void>)[] = []
const made: string[] = []
afterEach(async () => {
  while (stops.length) await stops.pop()!()
  for (const m of mounts.splice(0)) spawnSync('umount', [m])
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

const NAMES = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(2, '0')}.bin`)

/** A turn that filled `cache/`, and a shared cache elsewhere holding the same files and more. */
async function cacheTurn() {
  const w = await workspace()
  w.write('src/app.ts', 'app')
  await w.store.capture('s/m1')
  for (const n of NAMES) w.write(`cache/${n}`, `cached ${n}`)
  w.write('src/app.ts', 'app, changed by the turn')
  clockPast(w.ws, fs.lstatSync(w.p(`cache/${NAMES.at(-1)}`)).ctimeMs)
  await w.store.seal('s/m1')
  const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-shared-cache-'))
  made.push(shared)
  for (const n of NAMES) fs.writeFileSync(path.join(shared, n), `cached ${n}`)
  fs.writeFileSync(path.join(shared, 'only-in-the-shared-cache'), 'x')
  return { w, shared }
}

const sharedIntact = (shared: string): void => {
  expect(fs.readdirSync(shared).sort()).toEqual([...NAMES, 'only-in-the-shared-cache'].sort())
  for (const n of NAMES) expect(fs.readFileSync(path.join(shared, n), 'utf8')).toBe(`cached ${n}`)
}

describe.skipIf(!mountable)('a mount point inside a root', () => {
  it('a folder mounted over since the checkpoint is listed as on another file system, and left as it is', async () => {
    const { w, shared } = await cacheTurn()
    expect(spawnSync('mount', ['--bind', shared, w.p('cache')]).status).toBe(0)
    mounts.push(w.p('cache'))
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    sharedIntact(shared)
    const inCache = plan.actions.filter((a) => a.path === 'cache' || a.path.startsWith('cache/'))
    expect(inCache).toHaveLength(NAMES.length + 1)
    for (const a of inCache)
      expect([a.path, a.kind, a.reason]).toEqual([a.path, 'not-checkpointed', 'on another file system now (cache is a mount point since the checkpoint): left as it is'])
    expect(r.status).toBe('done')
    expect(r.failed).toEqual([])
    expect(w.text('src/app.ts')).toBe('app')
  })

  it('a mount made between the plan and its apply is found by the re-check', async () => {
    const { w, shared } = await cacheTurn()
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.filter((a) => a.kind === 'delete')).toHaveLength(NAMES.length + 1)
    expect(spawnSync('mount', ['--bind', shared, w.p('cache')]).status).toBe(0)
    mounts.push(w.p('cache'))
    const r = await w.store.apply(plan)
    sharedIntact(shared)
    expect(r.failed).toEqual([])
    const reason = 'on another file system now (cache is a mount point since the checkpoint): left as it is'
    expect(r.skipped.filter((s) => s.reason === reason).map((s) => s.path)).toEqual(['cache', ...NAMES.map((n) => `cache/${n}`)])
    expect(w.text('src/app.ts')).toBe('app')
  })

  it('a mount made over a folder while the restore empties it stops the restore there', async () => {
    const { w, shared } = await cacheTurn()
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.filter((a) => a.kind === 'delete')).toHaveLength(NAMES.length + 1)
    const child = startChild(ACTOR, ['mount', w.p('cache/f00.bin'), w.p('cache'), shared])
    stops.push(() => child.kill())
    mounts.push(w.p('cache'))
    await child.waitFor('ready')
    let held = false
    const r = await w.store.apply(
      plan,
      {},
      {
        onStep: (_i, s) => {
          if (held || s.key !== 'cache/f01.bin') return
          held = true
          return child.waitFor('acted')
        },
      },
    )
    expect(held).toBe(true)
    sharedIntact(shared)
    expect(r.failed).toEqual([])
    expect(r.skipped.map((s) => s.path)).toContain('cache/f19.bin')
    expect(w.text('src/app.ts')).toBe('app')
  })
})
