// What a plan says of a path it will not touch, and why (planner.ts classify): a file the capture
// before the turn did not cover, a path below a folder that is a link now, a file whose content the
// checkpoint could not keep. Each is listed with its reason and left as it is.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { workspace } from './helpers'

const said = (actions: { path: string; kind: string; reason?: string }[]) => Object.fromEntries(actions.map((a) => [a.path, [a.kind, a.reason]]))

describe('a path the plan leaves as it is, and why', () => {
  it('a file ignored when the turn began, which the turn un-ignored, was never checkpointed: listed as such, never deleted', async () => {
    const w = await workspace()
    w.write('.gitignore', '.env\n')
    w.write('.env', 'SECRET=mine')
    await w.store.capture('s/m1')
    w.write('.gitignore', 'node_modules/\n')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(said(plan.actions)).toEqual({
      '.env': ['not-checkpointed', 'not checkpointed before this turn (excluded by .gitignore or your exclude rules then, or outside the folders covered): left as it is'],
      '.gitignore': ['restore', undefined],
    })
    await w.store.apply(plan)
    expect(w.text('.env')).toBe('SECRET=mine')
    expect(w.text('.gitignore')).toBe('.env\n')
  })

  it('folders the turn made, replaced since by links to other folders of the project: nothing is read or written through a link', async () => {
    const w = await workspace()
    w.write('keep.txt', 'k')
    await w.store.capture('s/m1')
    w.write('made/new.txt', 'made by the turn')
    w.write('also/two.txt', 'also made by the turn')
    await w.store.seal('s/m1')
    // The user moves the folders and leaves a link in the place of each.
    for (const d of ['made', 'also']) {
      fs.renameSync(w.p(d), w.p(`${d}-moved`))
      fs.symlinkSync(`${d}-moved`, w.p(d))
    }
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const below = (d: string) => `the folder ${d} above it is a link now; nothing is read or written through it`
    expect(said(plan.actions)).toEqual({
      also: ['conflict', 'is now a symbolic link, the turn left a folder'],
      'also/two.txt': ['conflict', below('also')],
      made: ['conflict', 'is now a symbolic link, the turn left a folder'],
      'made/new.txt': ['conflict', below('made')],
    })
    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['also', 'is now a symbolic link, the turn left a folder'],
      ['also/two.txt', below('also')],
      ['made', 'is now a symbolic link, the turn left a folder'],
      ['made/new.txt', below('made')],
    ])
    expect(fs.readlinkSync(w.p('made'))).toBe('made-moved')
    expect(w.text('made-moved/new.txt')).toBe('made by the turn')
    expect(w.text('also-moved/two.txt')).toBe('also made by the turn')
  })

  it('a file written to all through the capture (its content never kept), exactly at the size limit: said to be unreadable then, not over the limit', async () => {
    const w = await workspace({ maxFileBytes: 2048 })
    w.write('busy.log', 'a'.repeat(2048))
    let n = 0
    // Another program rewrites it after every read the capture makes (same size, new content).
    await w.store.capture('s/m1', { afterRead: (abs) => abs === w.p('busy.log') && fs.writeFileSync(abs, String(++n % 10).repeat(2048)) })
    w.write('busy.log', 'the turn’s own log')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(said(plan.actions)).toEqual({ 'busy.log': ['not-checkpointed', 'not restorable: it could not be read when checkpointed'] })
    await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(w.text('busy.log')).toBe('the turn’s own log')
  })

  it('a file the turn deleted, whose folder is a link out of the project now: a conflict, and never written there even when chosen', async () => {
    const w = await workspace()
    w.write('d/gone.txt', 'deleted by the turn')
    w.write('d/kept.txt', 'kept')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('d/gone.txt'))
    await w.store.seal('s/m1')
    // The user moves the folder out of the project and leaves a link to it.
    const out = path.join(w.dir, 'elsewhere')
    fs.mkdirSync(out)
    fs.renameSync(w.p('d'), path.join(out, 'd'))
    fs.symlinkSync(path.join(out, 'd'), w.p('d'))
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(said(plan.actions)).toEqual({ 'd/gone.txt': ['conflict', `parent of ${w.p('d/gone.txt')} resolves outside its root (${path.join(out, 'd')})`] })
    const r = await w.store.apply(plan, { overwrite: plan.actions.map((a) => a.id) })
    expect(r.applied).toEqual([])
    expect(fs.readdirSync(path.join(out, 'd'))).toEqual(['kept.txt'])
  })
})
