// A plan's preview from the change journal (planner.ts PlanContext: a path in the head snapshot with
// no event since, itself or in a folder above it, is shown as that snapshot says, with no lstat),
// as the user sees it: what changed since the turn is still seen, and an install's plan does not
// look at every file it made. The captures run an hour ahead (anHourLater) so that the folders the
// test makes are not "young" for the journal's subscription and it is trusted at once.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { anHourLater, workspace } from './helpers'

const kinds = (actions: { path: string; kind: string }[]) => Object.fromEntries(actions.map((a) => [a.path, a.kind]))
const INSTALL = Array.from({ length: 40 }, (_, i) => `vendor/pkg/f${i}.bin`)

describe('a plan previewed from the change journal', () => {
  it('a file edited since the turn, and files whose folder was moved away, are seen; the install’s untouched files are not looked at one by one', async () => {
    const w = await workspace({ watch: true })
    w.write('notes.txt', 'notes v0')
    w.write('deep/c.txt', 'c v0')
    w.write('deep/sub/b.txt', 'b v0')
    await anHourLater(() => w.store.capture('s/m0'))
    await anHourLater(() => w.store.seal('s/m0'))
    await anHourLater(() => w.store.capture('s/m1'))
    w.write('notes.txt', 'notes by the turn')
    w.write('deep/c.txt', 'c by the turn')
    w.write('deep/sub/b.txt', 'b by the turn')
    for (const f of INSTALL) w.write(f, `installed ${f}`)
    await anHourLater(() => w.store.seal('s/m1'))
    // After the turn: the user edits a file, and moves a folder out of the project (one event, for
    // the folder only: nothing is reported for the file inside it).
    w.write('notes.txt', 'notes by the user')
    fs.renameSync(w.p('deep/sub'), path.join(w.dir, 'moved-out'))

    const lstat = vi.spyOn(fs, 'lstatSync')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const looked = lstat.mock.calls.filter(([p]) => String(p).endsWith('.bin')).length
    lstat.mockRestore()
    expect(kinds(plan.actions)).toEqual({
      'notes.txt': 'conflict',
      'deep/c.txt': 'restore',
      'deep/sub/b.txt': 'conflict',
      vendor: 'delete',
      'vendor/pkg': 'delete',
      ...Object.fromEntries(INSTALL.map((f) => [f, 'delete'])),
    })
    expect(plan.actions.find((a) => a.path === 'notes.txt')!.reason).toBe('edited since the turn')
    expect(plan.actions.find((a) => a.path === 'deep/sub/b.txt')!.reason).toBe('deleted since the turn')
    // An install's plan costs what changed since the turn, not a look at each file it made.
    expect(looked).toBe(0)

    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(r.skipped.map((s) => s.path).sort()).toEqual(['deep/sub/b.txt', 'notes.txt'])
    expect(w.text('notes.txt')).toBe('notes by the user')
    expect(w.text('deep/c.txt')).toBe('c v0')
    expect(w.exists('vendor')).toBe(false)
    expect(fs.readFileSync(path.join(w.dir, 'moved-out', 'b.txt'), 'utf8')).toBe('b by the turn')
  })

  it('a folder whose journal is not trusted now (a folder made in it since) is looked at, path by path, beside one whose journal is', async () => {
    const w = await workspace({
      watch: true,
      roots: (ws, dir) => {
        fs.mkdirSync(path.join(dir, 'vol'))
        return [{ path: ws }, { path: path.join(dir, 'vol') }]
      },
    })
    const vol = (rel: string) => path.join(w.dir, 'vol', rel)
    w.write('a.txt', 'a v0')
    fs.writeFileSync(vol('v.txt'), 'v0')
    await anHourLater(() => w.store.capture('s/m0'))
    await anHourLater(() => w.store.seal('s/m0'))
    await anHourLater(() => w.store.capture('s/m1'))
    w.write('a.txt', 'a by the turn')
    fs.writeFileSync(vol('v.txt'), 'v by the turn')
    await anHourLater(() => w.store.seal('s/m1'))
    // In the second folder, the user makes a folder (its journal may lack its watch: not trusted
    // until the next walk) and edits the turn's file.
    fs.mkdirSync(vol('new-folder'))
    fs.writeFileSync(vol('v.txt'), 'v by the user')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.map((a) => [path.basename(a.root), a.path, a.kind, a.reason])).toEqual([
      ['vol', 'v.txt', 'conflict', 'edited since the turn'],
      ['ws', 'a.txt', 'restore', undefined],
    ])
    await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(w.text('a.txt')).toBe('a v0')
    expect(fs.readFileSync(vol('v.txt'), 'utf8')).toBe('v by the user')
  })
})
