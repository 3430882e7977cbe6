// What a capture covered (coverage.ts), rule by rule where the engine tests leave one open, as the
// user sees a restore: only what the capture would have recorded can be "created by the turn" and
// deleted; the rules are the capture's own (its exclude patterns, its .gitignore files or none).
import fs from 'node:fs'
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
