// Another process acting while a restore runs, as a user would meet it: an editor's autosave of a
// file the restore is about to write, a package manager swapping a folder of hard links for a
// link to its store, a shared cache bind-mounted over a folder of the plan. The other process
// (children/race-actor.ts) reacts to the restore's own work — a file it wrote back, a file it
// deleted — and the step it races is held (an `onStep` promise) until it says it acted: no timer
// decides who wins.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Step } from '../../core/checkpoints/store/journal'
import { clockPast, REPO, startChild, workspace } from './helpers'

const ACTOR = path.join(REPO, 'test/checkpoints/children/race-actor.ts')
const made: string[] = []
const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  while (stops.length) await stops.pop()!()
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** Start the other process and wait until it watches; `holdAt` holds that step until it acted. */
async function actor(args: string[], holdAt: (s: Step) => boolean) {
  const child = startChild(ACTOR, args)
  stops.push(() => child.kill())
  await child.waitFor('ready')
  let held = false
  return {
    onStep: (_i: number, s: Step): Promise<void> | void => {
      if (held || !holdAt(s)) return
      held = true
      return child.waitFor('acted')
    },
    held: () => held,
  }
}

describe('a restore while another process writes', () => {
  it('an autosave made while the restore writes other files is kept, reported, and its undo leaves it', async () => {
    const w = await workspace()
    w.write('a.txt', 'a before')
    w.write('b.txt', 'b before')
    w.write('c.txt', 'c before')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a by the turn')
    w.write('b.txt', 'b by the turn')
    fs.rmSync(w.p('c.txt'))
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.map((a) => [a.path, a.kind])).toEqual([
      ['a.txt', 'restore'],
      ['b.txt', 'restore'],
      ['c.txt', 'recreate'],
    ])
    // As soon as a.txt is back, the editor saves b.txt (open in it) and a new c.txt.
    const editor = await actor(['autosave', w.p('a.txt'), 'a before', `${w.p('b.txt')}=b saved by the editor`, `${w.p('c.txt')}=c saved by the editor`], (s) => s.key === 'b.txt')
    const r = await w.store.apply(plan, {}, { onStep: editor.onStep })
    expect(editor.held()).toBe(true)
    expect(w.text('a.txt')).toBe('a before')
    expect(w.text('b.txt')).toBe('b saved by the editor')
    expect(w.text('c.txt')).toBe('c saved by the editor')
    expect(r.failed).toEqual([])
    expect(r.applied.map((a) => a.path)).toEqual(['a.txt'])
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['b.txt', 'changed since the plan was made; kept as it is'],
      ['c.txt', 'created since the plan was made; kept as it is'],
    ])
    // Undo puts back what the restore changed, and never the turn's version over the saves.
    const u = await w.store.undo(r.restoreId!)
    expect(u.status).toBe('done')
    expect(w.text('a.txt')).toBe('a by the turn')
    expect(w.text('b.txt')).toBe('b saved by the editor')
    expect(w.text('c.txt')).toBe('c saved by the editor')
  })

  it('a folder of hard links swapped for a link to the package store mid-restore costs the store nothing', async () => {
    // pnpm-like: the store's files are hard-linked into node_modules/pkg by the turn.
    const store = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-pkg-store-'))
    made.push(store)
    const names = Array.from({ length: 40 }, (_, i) => `f${String(i).padStart(2, '0')}.js`)
    for (const n of names) fs.writeFileSync(path.join(store, n), `module ${n}`)
    const w = await workspace()
    w.write('package.json', '{}')
    await w.store.capture('s/m1')
    fs.mkdirSync(w.p('node_modules/pkg'), { recursive: true })
    for (const n of names) fs.linkSync(path.join(store, n), w.p(`node_modules/pkg/${n}`))
    // Every ctime a proof: the steps' lstat alone proves each file (the store's inode, linked).
    clockPast(w.ws, fs.lstatSync(path.join(store, names.at(-1)!)).ctimeMs)
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.filter((a) => a.kind === 'delete')).toHaveLength(names.length + 2)
    // The first delete done, the package manager puts a link to its store in the folder's place.
    const pm = await actor(['swap', w.p('node_modules/pkg/f00.js'), w.p('node_modules/pkg'), store], (s) => s.key === 'node_modules/pkg/f01.js')
    const r = await w.store.apply(plan, {}, { onStep: pm.onStep })
    expect(pm.held()).toBe(true)
    expect(r.failed).toEqual([])
    expect(fs.readlinkSync(w.p('node_modules/pkg'))).toBe(store)
    expect(fs.readdirSync(store).sort()).toEqual(names)
    for (const n of names) expect(fs.readFileSync(path.join(store, n), 'utf8')).toBe(`module ${n}`)
    expect(r.skipped.map((s) => s.path)).toContain('node_modules/pkg/f39.js')
  })
})
