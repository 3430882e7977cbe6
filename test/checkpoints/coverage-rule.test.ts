// What a capture covered (coverage.ts), rule by rule where the engine tests leave one open, as the
// user sees a restore: only what the capture would have recorded can be "created by the turn" and
// deleted; the rules are the capture's own (its exclude patterns, its .gitignore files or none).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { workspace } from './helpers'

const kinds = (actions: { path: string; kind: string }[]) => Object.fromEntries(actions.map((a) => [a.path, a.kind]))

describe('what a capture covered', () => {
  it('a root that ignores .gitignore covered what its .gitignore names: the turn’s such file is deleted', async () => {
    const w = await workspace({ roots: (ws) => [{ path: ws, gitignore: false }] })
    w.write('.gitignore', '*.log\n')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('.gitignore'))
    w.write('made.log', 'made by the turn')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ '.gitignore': 'recreate', 'made.log': 'delete' })
    await w.store.apply(plan)
    expect(w.exists('made.log')).toBe(false)
  })

  it('a .gitignore that is a folder at the capture holds no rules: files beside it are covered', async () => {
    const w = await workspace()
    fs.mkdirSync(w.p('pkg/.gitignore'), { recursive: true })
    w.write('pkg/.gitignore/inside.txt', 'a folder by that name')
    await w.store.capture('s/m1')
    w.write('pkg/made.log', 'made by the turn')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'pkg/made.log': 'delete' })
  })
})

describe('the capture’s own rules decide what the turn created', () => {
  it('the user’s exclude patterns of the capture: what the turn made under them stays on disk', async () => {
    // The root's .gitignore is off: its "*.txt" covers nothing, the user's patterns still hold.
    const w = await workspace({ roots: (ws) => [{ path: ws, gitignore: false, excludes: ['secret/', '*.key'] }] })
    w.write('.gitignore', '*.txt\n')
    w.write('secret/old.txt', 'untracked before the turn')
    await w.store.capture('s/m1')
    // The user drops the patterns mid-turn: the seal records all, the capture's patterns still judge.
    await w.reopen({ roots: [{ path: w.ws, gitignore: false }] })
    w.write('secret/made.txt', 'under an excluded folder')
    w.write('made.key', 'an excluded name')
    w.write('made.txt', 'made by the turn')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const k = kinds(plan.actions)
    expect(k['made.txt']).toBe('delete')
    expect(k['secret/made.txt'] ?? 'not-checkpointed').toBe('not-checkpointed')
    expect(k['made.key'] ?? 'not-checkpointed').toBe('not-checkpointed')
    await w.store.apply(plan)
    expect([w.exists('made.txt'), w.exists('secret/made.txt'), w.exists('made.key')]).toEqual([false, true, true])
  })

  it('a root .gitignore the turn deleted still judges from the capture, in subfolders too', async () => {
    const w = await workspace()
    w.write('.gitignore', '*.log\nbuild/\n')
    w.write('build/old.js', 'untracked before the turn')
    w.write('pkg/a.txt', 'tracked')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('.gitignore'))
    w.write('made.log', 'ignored name')
    w.write('pkg/made.log', 'ignored name, one folder down')
    w.write('build/out.js', 'inside an ignored folder')
    w.write('build/sub/out.js', 'in a subfolder of an ignored folder')
    w.write('notes.txt', 'made by the turn')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const k = kinds(plan.actions)
    expect([k['.gitignore'], k['notes.txt']]).toEqual(['recreate', 'delete'])
    for (const f of ['made.log', 'pkg/made.log', 'build/out.js', 'build/sub/out.js']) expect(k[f] ?? 'not-checkpointed', f).toBe('not-checkpointed')
    await w.store.apply(plan)
    expect(['made.log', 'pkg/made.log', 'build/out.js', 'build/sub/out.js', 'notes.txt'].map((f) => w.exists(f))).toEqual([true, true, true, true, false])
  })

  it('a nested .gitignore the turn deleted applies below its folder only; its !pattern re-includes', async () => {
    const w = await workspace()
    w.write('.gitignore', '*.log\n')
    w.write('pkg/.gitignore', '*.tmp\n!keep.log\n')
    w.write('pkg/sub/a.txt', 'tracked')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('.gitignore'))
    fs.rmSync(w.p('pkg/.gitignore'))
    w.write('made.tmp', 'not ignored at the root')
    w.write('pkg/made.tmp', 'ignored by pkg/.gitignore')
    w.write('pkg/sub/made.tmp', 'ignored by pkg/.gitignore, one folder down')
    w.write('pkg/keep.log', 're-included by pkg/.gitignore')
    w.write('pkg/other.log', 'ignored by the root .gitignore')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const k = kinds(plan.actions)
    expect([k['made.tmp'], k['pkg/keep.log']]).toEqual(['delete', 'delete'])
    for (const f of ['pkg/made.tmp', 'pkg/sub/made.tmp', 'pkg/other.log']) expect(k[f] ?? 'not-checkpointed', f).toBe('not-checkpointed')
  })

  it('a folder excluded above stays excluded: a deeper !pattern cannot re-include in it', async () => {
    const w = await workspace()
    w.write('.gitignore', 'gen/\n')
    w.write('pkg/.gitignore', '!keep.txt\n')
    w.write('pkg/gen/old.txt', 'untracked before the turn')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('.gitignore'))
    fs.rmSync(w.p('pkg/.gitignore'))
    w.write('pkg/gen/keep.txt', 'inside the excluded folder')
    w.write('pkg/keep.txt', 'made by the turn')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const k = kinds(plan.actions)
    expect(k['pkg/keep.txt']).toBe('delete')
    expect(k['pkg/gen/keep.txt'] ?? 'not-checkpointed').toBe('not-checkpointed')
    await w.store.apply(plan)
    expect(w.exists('pkg/gen/keep.txt')).toBe(true)
  })
})

describe('a .gitignore of the capture whose rules cannot be read back', () => {
  // Its rules held at the capture and are unknown now: nothing in its folder counts as covered, so
  // a restore leaves what it cannot tell apart (an ignored file that was there before the turn).
  // In folder `dir` ('' for the root, or 'pkg/').
  const ignoredBeforeTheTurn = async (opts: { dir?: string; maxFileBytes?: number; symlink?: boolean }, lose: (w: Awaited<ReturnType<typeof workspace>>) => Promise<void>) => {
    const d = opts.dir ?? ''
    const w = await workspace({ maxFileBytes: opts.maxFileBytes })
    if (opts.symlink) {
      w.write(`${d}rules.txt`, '*.log\n')
      fs.symlinkSync('rules.txt', w.p(`${d}.gitignore`))
    } else w.write(`${d}.gitignore`, '*.log\n' + '#'.repeat(64))
    w.write(`${d}keep.log`, 'ignored, there before the turn')
    w.write(`${d}a.txt`, 'tracked')
    await w.store.capture('s/m1')
    fs.rmSync(w.p(`${d}.gitignore`))
    w.write(`${d}made.log`, 'made by the turn')
    await w.store.seal('s/m1')
    await lose(w)
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const k = kinds(plan.actions)
    for (const f of [`${d}keep.log`, `${d}made.log`]) expect(k[f] ?? 'not-checkpointed', f).toBe('not-checkpointed')
    await w.store.apply(plan)
    expect(w.text(`${d}keep.log`)).toBe('ignored, there before the turn')
  }

  it('its stored copy is lost: the ignored file that was there before the turn stays', async () => {
    await ignoredBeforeTheTurn({}, async (w) => {
      for (const d of ['blobs', 'packs']) fs.rmSync(path.join(w.storeDir, d), { recursive: true, force: true })
      await w.reopen()
    })
  })

  it('it was over the size cap (not kept): the ignored file that was there before the turn stays', async () => {
    await ignoredBeforeTheTurn({ maxFileBytes: 32 }, async () => {})
  })

  it('pkg/.gitignore was a symlink (its link text kept, not the rules): the ignored file there stays', async () => {
    await ignoredBeforeTheTurn({ dir: 'pkg/', symlink: true }, async () => {})
  })
})
