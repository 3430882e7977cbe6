// Which paths a plan weighs (candidates.ts), rule by rule where the engine tests leave one open, as
// the user sees the plan: what a new folder's files are, which rules judge a turn recorded before
// its rules were kept, which turns' checkpoints are read, and what an undo puts back.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { workspace, type Ws } from './helpers'

const kinds = (actions: { path: string; kind: string }[]) => Object.fromEntries(actions.map((a) => [a.path, a.kind]))

/** The turn record of `key` ("s/m1") as stored, edited by `edit`; the store is reopened to read it. */
async function editRecord(w: Ws, key: string, edit: (r: Record<string, unknown>) => void): Promise<void> {
  const [ses, msg] = key.split('/') as [string, string]
  const dir = path.join(w.storeDir, 'turns', ses)
  const name = fs.readdirSync(dir).find((n) => n.endsWith('.json') && JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')).messageID === msg)!
  const f = path.join(dir, name)
  const r = JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, unknown>
  edit(r)
  fs.writeFileSync(f, JSON.stringify(r))
  await w.reopen()
}

describe('files in a folder the capture did not hold', () => {
  it('a new folder’s files are the turn’s, even those its rules ignore, and so are those of an ignored folder inside it', async () => {
    const w = await workspace()
    // "cache" names files only ("!cache/" lets folders by that name in).
    w.write('.gitignore', '*.log\ngen/\ncache\n!cache/\n')
    w.write('old/keep.log', 'ignored, there before the turn')
    await w.store.capture('s/m1')
    // The turn drops the .gitignore: the seal records what it named, the capture's rules judge.
    fs.rmSync(w.p('.gitignore'))
    w.write('fresh/run.log', 'made by the turn, in a folder it made')
    w.write('fresh/gen/out.js', 'made by the turn, in an ignored folder inside it')
    w.write('cache/run.log', 'made by the turn, in a folder it made whose name the rules ignore for files')
    w.write('old/made.log', 'made by the turn beside an ignored file')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const k = kinds(plan.actions)
    expect([k['.gitignore'], k['fresh/run.log'], k['fresh/gen/out.js'], k['cache/run.log']]).toEqual(['recreate', 'delete', 'delete', 'delete'])
    expect(k['old/made.log'] ?? 'not-checkpointed').toBe('not-checkpointed')
    await w.store.apply(plan)
    expect([w.exists('fresh'), w.exists('cache/run.log'), w.exists('old/made.log'), w.text('old/keep.log')]).toEqual([false, false, true, 'ignored, there before the turn'])
  })

  it('a file named as a folder the rules ignore (or as a file they ignore) is not the turn’s: a folder may have stood there', async () => {
    const w = await workspace()
    w.write('.gitignore', 'build/\ncache\n!cache/\n')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('.gitignore'))
    w.write('build', 'a file where an ignored folder may have been')
    w.write('cache', 'a file by an ignored name')
    w.write('made.txt', 'made by the turn')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const k = kinds(plan.actions)
    expect(k['made.txt']).toBe('delete')
    for (const f of ['build', 'cache']) expect(k[f] ?? 'not-checkpointed', f).toBe('not-checkpointed')
    await w.store.apply(plan)
    expect([w.exists('build'), w.exists('cache'), w.exists('made.txt')]).toEqual([true, true, false])
  })
})

describe('a turn recorded before its rules were kept is judged by the root’s rules of today', () => {
  it('a root that ignores .gitignore, with exclude patterns: what the .gitignore names is the turn’s, what the patterns name is not', async () => {
    const w = await workspace({ roots: (ws) => [{ path: ws, gitignore: false }] })
    w.write('.gitignore', '*.log\n')
    await w.store.capture('s/m1')
    w.write('made.log', 'named by the .gitignore')
    w.write('made.key', 'named by the patterns the user adds later')
    w.write('made.txt', 'made by the turn')
    await w.store.seal('s/m1')
    await editRecord(w, 's/m1', (r) => delete r.coverage)
    await w.reopen({ roots: [{ path: w.ws, gitignore: false, excludes: ['*.key'] }] })
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const k = kinds(plan.actions)
    expect([k['made.log'], k['made.txt'], k['made.key'] ?? 'not-checkpointed']).toEqual(['delete', 'delete', 'not-checkpointed'])
    await w.store.apply(plan)
    expect([w.exists('made.log'), w.exists('made.key'), w.exists('made.txt')]).toEqual([false, true, false])
  })

  it('a root that reads .gitignore: what it names is not the turn’s', async () => {
    const w = await workspace()
    w.write('.gitignore', '*.log\n')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('.gitignore'))
    w.write('made.log', 'named by the .gitignore')
    w.write('made.txt', 'made by the turn')
    await w.store.seal('s/m1')
    await editRecord(w, 's/m1', (r) => delete r.coverage)
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const k = kinds(plan.actions)
    expect([k['.gitignore'], k['made.log'] ?? 'not-checkpointed', k['made.txt']]).toEqual(['recreate', 'not-checkpointed', 'delete'])
  })
})

describe('the turns a plan reads', () => {
  it('a later turn whose checkpoint is unreadable is passed over: the turn’s own restore still goes', async () => {
    const w = await workspace()
    w.write('x.txt', 'x before')
    await w.store.capture('s/m1')
    w.write('x.txt', 'x by m1')
    await w.store.seal('s/m1')
    await w.store.capture('s/m2')
    w.write('y.txt', 'y by m2')
    await w.store.seal('s/m2')
    await editRecord(w, 's/m2', (r) => (r.post = 'no-such-snapshot'))
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'x.txt': 'restore' })
    await w.store.apply(plan)
    expect(w.text('x.txt')).toBe('x before')
  })

  it('going back over a turn whose checkpoint is unreadable, or never sealed, restores nothing and says which', async () => {
    for (const [edit, says] of [
      [(r: Record<string, unknown>) => (r.post = 'no-such-snapshot'), 'the checkpoint of s/m2 is missing or unreadable; nothing will be restored'],
      [(r: Record<string, unknown>) => delete r.post, 'the checkpoint of s/m2 is not sealed; nothing will be restored'],
    ] as const) {
      const w = await workspace()
      w.write('x.txt', 'x before')
      await w.store.capture('s/m1')
      w.write('x.txt', 'x by m1')
      await w.store.seal('s/m1')
      await w.store.capture('s/m2')
      w.write('x.txt', 'x by m2')
      await w.store.seal('s/m2')
      await editRecord(w, 's/m2', edit)
      const plan = await w.store.plan({ backTo: 's/m1' })
      expect([plan.actions, plan.warnings]).toEqual([[], [says]])
      await w.store.apply(plan)
      expect(w.text('x.txt')).toBe('x by m2')
    }
  })

  it('a turn whose own checkpoint is unreadable restores nothing and says so', async () => {
    const w = await workspace()
    w.write('x.txt', 'x before')
    await w.store.capture('s/m1')
    w.write('x.txt', 'x by m1')
    await w.store.seal('s/m1')
    await editRecord(w, 's/m1', (r) => (r.pre = 'no-such-snapshot'))
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect([plan.actions, plan.warnings]).toEqual([[], ['the checkpoint of s/m1 is missing or unreadable; nothing will be restored']])
  })

  it('a later turn that left a file as it found it does not own it, though another session’s capture saw it changed meanwhile', async () => {
    const w = await workspace()
    w.write('x.txt', 'x before')
    await w.store.capture('s/m1')
    w.write('x.txt', 'x by m1')
    await w.store.seal('s/m1')
    await w.store.capture('s/m2')
    w.write('x.txt', 'x while m2 runs')
    await w.store.capture('o/m1')
    w.write('x.txt', 'x by m1')
    await w.store.seal('o/m1')
    await w.store.seal('s/m2')
    // And a turn that changed nothing at all.
    await w.store.capture('s/m3')
    await w.store.seal('s/m3')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'x.txt': 'restore' })
    // The user edits it: the conflict is theirs, not a later turn's (no "go back to" offered).
    w.write('x.txt', 'x edited by the user')
    const edited = await w.store.plan({ turnKey: 's/m1' })
    expect([edited.actions[0]!.reason, edited.suggestion]).toEqual(['edited since the turn', undefined])
    await w.store.apply(plan)
    expect(w.text('x.txt')).toBe('x edited by the user')
  })
})

describe('the folders a plan reads', () => {
  it('a folder made shared since the turn is never rolled back, though the turn’s checkpoint holds it', async () => {
    const w = await workspace({ roots: (ws, dir) => [{ path: ws }, { path: path.join(dir, 'notes') }] })
    const notes = path.join(w.dir, 'notes')
    fs.mkdirSync(notes)
    await w.reopen()
    fs.writeFileSync(path.join(notes, 'memory.md'), 'm0')
    w.write('x.txt', 'x before')
    await w.store.capture('s/m1')
    fs.writeFileSync(path.join(notes, 'memory.md'), 'm1')
    w.write('x.txt', 'x by m1')
    await w.store.seal('s/m1')
    await w.reopen({ roots: [{ path: w.ws }, { path: notes, shared: true }] })
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'x.txt': 'restore' })
    await w.store.apply(plan)
    expect([w.text('x.txt'), fs.readFileSync(path.join(notes, 'memory.md'), 'utf8')]).toEqual(['x before', 'm1'])
  })

  it('a folder added as a root during the turn: what the turn made there was never checkpointed and stays', async () => {
    const w = await workspace()
    const extra = path.join(w.dir, 'extra')
    fs.mkdirSync(path.join(extra, 'sub'), { recursive: true })
    w.write('x.txt', 'x before')
    await w.store.capture('s/m1')
    await w.reopen({ roots: [{ path: w.ws }, { path: extra }] })
    fs.writeFileSync(path.join(extra, 'sub', 'made.txt'), 'made while the folder joined')
    w.write('x.txt', 'x by m1')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.filter((a) => a.kind !== 'not-checkpointed').map((a) => [a.path, a.kind])).toEqual([['x.txt', 'restore']])
    await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect([w.text('x.txt'), fs.existsSync(path.join(extra, 'sub', 'made.txt'))]).toEqual(['x before', true])
  })
})

describe('what an undo puts back', () => {
  it('only the paths the restore touched, in the root it touched', async () => {
    const w = await workspace({ roots: (ws, dir) => [{ path: ws }, { path: path.join(dir, 'extra') }] })
    fs.mkdirSync(path.join(w.dir, 'extra'))
    await w.reopen()
    w.write('x.txt', 'x before')
    await w.store.capture('s/m1')
    w.write('x.txt', 'x by m1')
    await w.store.seal('s/m1')
    const r = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    const undo = await w.store.planUndo(r.restoreId!)
    expect(kinds(undo.actions)).toEqual({ 'x.txt': 'restore' })
    await w.store.apply(undo)
    expect(w.text('x.txt')).toBe('x by m1')
  })
})
