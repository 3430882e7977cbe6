// Who changed a path a plan would touch (ownership.ts), where the path or the plan has a shape the
// first rule tests (ownership-rule.test.ts) leave open: a folder the turn removed, a link the user
// made, several folders (roots), a folder added while turns ran, a plan back over several turns,
// a fork's copies of several turns, a turn still running.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { planKnowing, workspace } from './helpers'

const kinds = (actions: { path: string; kind: string }[]) => Object.fromEntries(actions.map((a) => [a.path, a.kind]))

describe('folders and links by what the tools named in them', () => {
  it('alongside another session, a folder this turn’s tools emptied and removed comes back with its file, as the turn’s own', async () => {
    const w = await workspace()
    w.write('old/x.txt', 'kept before the turn')
    await w.store.capture('sesB/m1')
    await w.store.capture('sesA/m2')
    // A's edit tool deleted old/x.txt (a patch), and the empty folder went with it.
    fs.rmSync(w.p('old'), { recursive: true })
    w.write('b.txt', 'by B')
    await w.store.seal('sesA/m2')
    await w.store.seal('sesB/m1')
    const { plan } = planKnowing(w, { turnKey: 'sesA/m2' }, { 'sesA/m2': ['old/x.txt'], 'sesB/m1': ['b.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ old: 'recreate', 'old/x.txt': 'recreate', 'b.txt': 'not-this-turn' })
    await w.store.apply(p)
    expect(w.text('old/x.txt')).toBe('kept before the turn')
    expect(w.text('b.txt')).toBe('by B')
  })

  it('a link the user made during the turn, that the turn’s tools wrote through, is the user’s: kept unless chosen', async () => {
    const w = await workspace()
    w.write('src/keep.txt', 'k')
    await w.store.capture('sesA/m2')
    fs.symlinkSync('src', w.p('lnk')) // the user, in a terminal
    w.write('lnk/new.txt', 'by A') // A's write tool, through the link
    await w.store.seal('sesA/m2')
    const { plan } = planKnowing(w, { turnKey: 'sesA/m2' }, { 'sesA/m2': ['lnk/new.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ lnk: 'conflict', 'src/new.txt': 'delete' })
    await w.store.apply(p, { onConflict: 'restore-rest' })
    expect(fs.readlinkSync(w.p('lnk'))).toBe('src')
    expect(w.exists('src/new.txt')).toBe(false)
  })

  it('a link made while another session ran, that only that session’s tools wrote through, is not taken for its work: offered', async () => {
    const w = await workspace()
    w.write('src/keep.txt', 'k')
    await w.store.capture('sesB/m1')
    await w.store.capture('sesA/m2')
    fs.symlinkSync('src', w.p('lnk')) // nobody’s tools made it
    w.write('lnk/b.txt', 'by B') // B's write tool, through the link
    w.write('a.txt', 'by A')
    await w.store.seal('sesA/m2')
    await w.store.seal('sesB/m1')
    const { plan } = planKnowing(w, { turnKey: 'sesA/m2' }, { 'sesA/m2': ['a.txt'], 'sesB/m1': ['lnk/b.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', lnk: 'conflict', 'src/b.txt': 'not-this-turn' })
    const lnk = p.actions.find((a) => a.path === 'lnk')!
    await w.store.apply(p, { overwrite: [lnk.id] })
    expect(w.exists('lnk')).toBe(false)
    expect(w.text('src/b.txt')).toBe('by B')
  })
})

describe('several folders checkpointed together', () => {
  it('a retake during this turn that touched only the project folder: the turn’s file in the extra folder is still its own', async () => {
    const w = await workspace({ roots: (ws, dir) => (fs.mkdirSync(path.join(dir, 'extra')), [{ path: ws }, { path: path.join(dir, 'extra') }]) })
    const extra = path.join(w.dir, 'extra')
    await w.store.capture('sesB/m1')
    w.write('f.txt', 'by B')
    await w.store.seal('sesB/m1')
    await w.store.capture('sesA/m2')
    fs.writeFileSync(path.join(extra, 'e.txt'), 'by A')
    expect((await w.store.apply(await w.store.plan({ turnKey: 'sesB/m1' }))).status).toBe('done')
    await w.store.seal('sesA/m2')
    const p = await w.store.plan({ turnKey: 'sesA/m2' })
    expect(kinds(p.actions)).toEqual({ 'e.txt': 'delete', 'f.txt': 'conflict' })
    await w.store.apply(p, { onConflict: 'restore-rest' })
    expect(fs.existsSync(path.join(extra, 'e.txt'))).toBe(false)
    expect(w.exists('f.txt')).toBe(false)
  })

  it('an extra folder added while two sessions’ turns ran: the retake still plans, and leaves that folder’s files as they are', async () => {
    const w = await workspace()
    const extra = path.join(w.dir, 'extra')
    fs.mkdirSync(extra)
    await w.store.capture('sesA/m2')
    await w.store.capture('sesB/m1')
    w.write('b.txt', 'by A or B')
    await w.store.seal('sesB/m1')
    // The user adds a folder in Settings (the store reopens with it) while A still runs.
    await w.reopen({ roots: [{ path: w.ws }, { path: extra }] })
    fs.writeFileSync(path.join(extra, 'notes.md'), 'the user’s notes')
    w.write('a.txt', 'by A, alone')
    await w.store.seal('sesA/m2')
    const p = await w.store.plan({ turnKey: 'sesA/m2' })
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'b.txt': 'conflict', 'notes.md': 'not-checkpointed' })
    await w.store.apply(p, { onConflict: 'restore-rest' })
    expect(fs.readFileSync(path.join(extra, 'notes.md'), 'utf8')).toBe('the user’s notes')
    expect(w.text('b.txt')).toBe('by A or B')
  })
})

describe('plans over several turns', () => {
  it('back to a turn: a retake during a later turn of the session is still a restore’s doing, not rolled back', async () => {
    const w = await workspace()
    await w.store.capture('sesB/m1')
    w.write('f.txt', 'by B')
    await w.store.seal('sesB/m1')
    await w.store.capture('sesA/m1')
    w.write('a1.txt', 'by A')
    await w.store.seal('sesA/m1')
    await w.store.capture('sesA/m2')
    w.write('a2.txt', 'by A')
    // While A's second turn runs, the user retakes B: f.txt is gone.
    expect((await w.store.apply(await w.store.plan({ turnKey: 'sesB/m1' }))).status).toBe('done')
    await w.store.seal('sesA/m2')
    const p = await w.store.plan({ backTo: 'sesA/m1' })
    expect(kinds(p.actions)).toEqual({ 'a1.txt': 'delete', 'a2.txt': 'delete', 'f.txt': 'conflict' })
    expect(p.actions.find((a) => a.path === 'f.txt')!.reason).toBe('put back by a restore (the retake of session sesB) during this turn: kept unless you roll it back')
    await w.store.apply(p, { onConflict: 'restore-rest' })
    expect(w.exists('f.txt')).toBe(false)
  })

  it('back to a fork’s first copied turn: both copies are undone as in the original, which is the same work', async () => {
    const w = await workspace()
    await w.store.capture('s/m1')
    w.write('one.txt', '1')
    await w.store.seal('s/m1')
    await w.store.capture('s/m2')
    w.write('two.txt', '2')
    await w.store.seal('s/m2')
    expect(await w.store.forkSession('s', 's-fork')).toBe(2)
    const p = await w.store.plan({ backTo: 's-fork/m1' })
    expect(kinds(p.actions)).toEqual({ 'one.txt': 'delete', 'two.txt': 'delete' })
  })

  it('a turn still running: the plan is refused without asking the host about any turn’s tool use', async () => {
    const w = await workspace()
    await w.store.capture('sesA/m1')
    w.write('a.txt', 'by A')
    const { plan, asked } = planKnowing(w, { turnKey: 'sesA/m1' }, { 'sesA/m1': ['a.txt'] })
    const p = await plan
    expect(p.actions).toEqual([])
    expect(p.warnings).toEqual(['a turn is still running (not sealed); seal it before restoring'])
    expect(asked).toEqual([])
  })
})
