// Every file of a plan can be kept as it is (not only conflicts), and the files a user
// keeps are held aside around opencode's own revert — also when the project is opened through a
// symlink, never through a folder that now leads out of the project.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { KeptFiles } from '../../core/kept-files'
import { workspace } from './helpers'

describe('keeping files out of a restore', () => {
  it('a kept file of any kind is left as it is and reported; the rest is restored and the turn counts as restored', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    w.write('b.txt', 'b0')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a1')
    w.write('b.txt', 'b1')
    w.write('new.txt', 'made by the turn')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const id = (p: string) => plan.actions.find((a) => a.path === p)!.id
    const res = await w.store.apply(plan, { keep: [id('a.txt'), id('new.txt')] })
    expect(res.status).toBe('done')
    expect(w.text('a.txt')).toBe('a1')
    expect(w.text('new.txt')).toBe('made by the turn')
    expect(w.text('b.txt')).toBe('b0')
    expect(res.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['a.txt', 'kept as it is, as you chose'],
      ['new.txt', 'kept as it is, as you chose'],
    ])
    expect(w.store.listTurns('s')[0]!.status).toBe('restored')
  })
})

describe('kept files around the server’s revert', () => {
  it('work when the project is opened through a symlink', async () => {
    const w = await workspace()
    w.write('notes.md', 'mine')
    const link = path.join(w.dir, 'project-link')
    fs.symlinkSync(w.ws, link)
    const kept = new KeptFiles()
    const id = kept.hold([{ root: link, path: 'notes.md' }])
    fs.writeFileSync(w.p('notes.md'), 'rewritten by the revert')
    expect(kept.putBack(id)).toEqual({ restored: [path.join(link, 'notes.md')], failed: [] })
    expect(w.text('notes.md')).toBe('mine')
  })

  it('never write through a folder that became a link out of the project', async () => {
    const w = await workspace()
    w.write('sub/notes.md', 'mine')
    const kept = new KeptFiles()
    const id = kept.hold([{ root: w.ws, path: 'sub/notes.md' }])
    const outside = path.join(w.dir, 'outside')
    fs.mkdirSync(outside)
    fs.rmSync(w.p('sub'), { recursive: true })
    fs.symlinkSync(outside, w.p('sub'))
    const r = kept.putBack(id)
    expect(r.restored).toEqual([])
    expect(r.failed).toEqual([expect.objectContaining({ path: 'sub/notes.md', error: expect.stringMatching(/outside its root/) })])
    expect(fs.readdirSync(outside)).toEqual([])
  })
})
