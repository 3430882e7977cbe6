// A folder of the plan that is itself a mount point made since the checkpoint (planner.ts classify:
// a folder path is checked too, not only the folders above a path): the plan lists it as on another
// file system, never as a folder to delete or to put back, and the restore leaves the mounted
// folder's files alone. Needs mount rights (root in a container that allows it), as
// mount-points.test.ts; skipped with the reason printed otherwise.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { workspace } from './helpers'

const mountable = (() => {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-bind-probe-'))
  fs.mkdirSync(path.join(probe, 'a'))
  fs.mkdirSync(path.join(probe, 'b'))
  const r = spawnSync('mount', ['--bind', path.join(probe, 'a'), path.join(probe, 'b')], { encoding: 'utf8' })
  if (r.status === 0) spawnSync('umount', [path.join(probe, 'b')])
  fs.rmSync(probe, { recursive: true, force: true })
  if (r.status !== 0) console.warn(`[planner-mount-rule] skipped: cannot bind-mount here (${(r.stderr || r.error?.message || '').trim()})`)
  return r.status === 0
})()

// Unmounted before the workspace is removed: a recursive delete through a mount empties what it shows.
const mounts: string[] = []
const made: string[] = []
afterEach(() => {
  for (const m of mounts.splice(0)) spawnSync('umount', [m])
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** A folder elsewhere holding `files`, bind-mounted over `at`. */
function mountOver(at: string, files: Record<string, string>): string {
  const shared = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-shared-'))
  made.push(shared)
  for (const [n, text] of Object.entries(files)) fs.writeFileSync(path.join(shared, n), text)
  fs.mkdirSync(at, { recursive: true })
  expect(spawnSync('mount', ['--bind', shared, at]).status).toBe(0)
  mounts.push(at)
  return shared
}

describe.skipIf(!mountable)('a folder of the plan mounted over since the checkpoint', () => {
  it('a folder the turn made, or one it deleted, that is a mount point now is on another file system: neither deleted nor put back', async () => {
    const w = await workspace()
    w.write('old/x.txt', 'x before the turn')
    w.write('src/app.ts', 'app')
    await w.store.capture('s/m1')
    w.write('cache/a.bin', 'made by the turn')
    fs.rmSync(w.p('old'), { recursive: true })
    w.write('src/app.ts', 'app, changed by the turn')
    await w.store.seal('s/m1')
    // Since the turn: a shared cache mounted where the turn made its own, a volume where it deleted one.
    const cache = mountOver(w.p('cache'), { 'a.bin': 'made by the turn', 'shared.bin': 'shared' })
    const volume = mountOver(w.p('old'), { 'y.txt': 'on the volume' })

    const plan = await w.store.plan({ turnKey: 's/m1' })
    const elsewhere = (mount: string) => ['not-checkpointed', `on another file system now (${mount} is a mount point since the checkpoint): left as it is`]
    expect(Object.fromEntries(plan.actions.map((a) => [a.path, [a.kind, a.reason]]))).toEqual({
      cache: elsewhere('cache'),
      'cache/a.bin': elsewhere('cache'),
      old: elsewhere('old'),
      'old/x.txt': elsewhere('old'),
      'src/app.ts': ['restore', undefined],
    })
    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(r.failed).toEqual([])
    expect(w.text('src/app.ts')).toBe('app')
    expect(fs.readdirSync(cache).sort()).toEqual(['a.bin', 'shared.bin'])
    expect(fs.readdirSync(volume)).toEqual(['y.txt'])
  })
})
