// Plan previews off the main thread (diff.ts withDiffBudget, diff-worker.ts, plan-diffs.ts): a diff
// past the plan's main-thread budget is made on the diff worker, and the result is the diff the
// main thread would have made. The time saved is measured by bench:checkpoints, not asserted here
// (the machine is shared; a timing assertion would be noise).
import { describe, expect, it } from 'vitest'
import { diffBuffers, withDiffBudget } from '../../core/checkpoints/diff'
import { diffOffThread } from '../../core/checkpoints/diff-worker'
import { workspace } from './helpers'

/** ~205 KB of source-like lines, and the same with every third line changed (the slow case). */
function rewrite(): { a: Buffer; b: Buffer } {
  const a: string[] = []
  const b: string[] = []
  for (let i = 0; i < 4_000; i++) {
    const line = `export const value${i} = compute(${i}, 'some text to make the line longer')`
    a.push(line)
    b.push(i % 3 === 0 ? line.replace('compute', 'recompute') : line)
  }
  return { a: Buffer.from(a.join('\n') + '\n'), b: Buffer.from(b.join('\n') + '\n') }
}

describe('plan diffs off the main thread', () => {
  it('a diff past the budget is deferred (no text, no guess); within it, the diff is made', () => {
    const { a, b } = rewrite()
    expect(a.length).toBeGreaterThan(200_000)
    const late = withDiffBudget(-1, () => diffBuffers(a, b, 'big.ts'))
    expect(late).toMatchObject({ binary: false, deferred: true })
    expect(late).not.toHaveProperty('text')
    // A spent budget defers small diffs too: a plan of thousands of files must not add them up.
    expect(withDiffBudget(-1, () => diffBuffers(Buffer.from('x\n'), Buffer.from('y\n'), 'tiny.txt'))).toMatchObject({ deferred: true })
    const small = withDiffBudget(60_000, () => diffBuffers(Buffer.from('x\ny\n'), Buffer.from('x\nz\n'), 's.txt'))
    expect(small).toEqual({ binary: false, added: 1, removed: 1, text: '--- a/s.txt\n+++ b/s.txt\n@@ -1,2 +1,2 @@\n x\n-y\n+z\n' })
  })

  it('the worker makes exactly the diff the main thread makes, binary and absent sides included', async () => {
    const { a, b } = rewrite()
    const inline = diffBuffers(a, b, 'big.ts')
    expect(inline.added).toBe(1_334)
    expect(await diffOffThread(a, b, 'big.ts')).toEqual(inline)
    expect(await diffOffThread(null, b, 'new.ts')).toEqual(diffBuffers(null, b, 'new.ts'))
    expect(await diffOffThread(a, null, 'gone.ts')).toEqual(diffBuffers(a, null, 'gone.ts'))
    const bin = Buffer.concat([Buffer.from([0]), a])
    expect(await diffOffThread(bin, b, 'x.bin')).toEqual({ binary: true, added: 0, removed: 0 })
    // A Buffer from Node's shared pool: only its own bytes are sent.
    const pooled = Buffer.from('one\ntwo\n')
    expect(await diffOffThread(pooled, Buffer.from('one\n2\n'), 'p.txt')).toEqual(diffBuffers(pooled, Buffer.from('one\n2\n'), 'p.txt'))
  })

  it("a plan and a turn's change list of a large rewrite carry the full diff, made off-thread", async () => {
    const { a, b } = rewrite()
    const w = await workspace()
    w.write('big.ts', a)
    w.write('small.txt', 'one\ntwo\n')
    await w.store.capture('s/m1')
    w.write('big.ts', b)
    w.write('small.txt', 'one\n2\n')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const big = plan.actions.find((x) => x.path === 'big.ts')!
    expect(big.kind).toBe('restore')
    expect(big.diff).toBe(diffBuffers(b, a, 'big.ts').text)
    expect(plan.actions.find((x) => x.path === 'small.txt')!.diff).toBe(diffBuffers(Buffer.from('one\n2\n'), Buffer.from('one\ntwo\n'), 'small.txt').text)
    const changes = await w.store.changes('s/m1')
    expect(changes.find((c) => c.path === 'big.ts')).toMatchObject({ added: 1_334, removed: 1_334, diff: diffBuffers(a, b, 'big.ts').text })
    // The preview changes nothing about the restore itself.
    const res = await w.store.apply(plan)
    expect(res.status).toBe('done')
    expect(w.read('big.ts').equals(a)).toBe(true)
  })
})
