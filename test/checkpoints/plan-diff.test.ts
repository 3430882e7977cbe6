// Plan previews and change lists are diffed on the engine's thread, bounded by sizes (diff.ts): a
// large rewrite still carries its full diff, and a rewrite past the bounds shows line counts
// instead of holding the host's main thread.
import { describe, expect, it } from 'vitest'
import { diffBuffers } from '../../core/checkpoints/plan/diff'
import { workspace } from './helpers'

/** `lines` source-like lines (~75 bytes each), and the same with every third line changed. */
function rewrite(lines: number): { a: Buffer; b: Buffer } {
  const a: string[] = []
  const b: string[] = []
  for (let i = 0; i < lines; i++) {
    const line = `export const value${i} = compute(${i}, 'some text to make the line longer')`
    a.push(line)
    b.push(i % 3 === 0 ? line.replace('compute', 'recompute') : line)
  }
  return { a: Buffer.from(a.join('\n') + '\n'), b: Buffer.from(b.join('\n') + '\n') }
}

describe('plan diffs', () => {
  it("a plan and a turn's change list of a large rewrite carry the full diff", async () => {
    const { a, b } = rewrite(2_700)
    expect(a.length).toBeGreaterThan(200_000)
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
    expect(big.diff!.split('\n').filter((l) => l.startsWith('+')).length).toBe(900 + 1)
    expect(plan.actions.find((x) => x.path === 'small.txt')!.diff).toBe('--- a/small.txt\n+++ b/small.txt\n@@ -1,2 +1,2 @@\n one\n-2\n+two\n')
    const changes = await w.store.changes('s/m1')
    expect(changes.find((c) => c.path === 'big.ts')).toMatchObject({ added: 900, removed: 900, diff: diffBuffers(a, b, 'big.ts').text })
    // The preview changes nothing about the restore itself.
    const res = await w.store.apply(plan)
    expect(res.status).toBe('done')
    expect(w.read('big.ts').equals(a)).toBe(true)
  })

  it('past the bounds, line counts and no text: more than 2,000 lines changed, a search too wide for its size, a side over 2 MB', () => {
    // 2,668 lines changed: the counts are those of the changed middle (no line shared at either end).
    const { a, b } = rewrite(4_000)
    expect(diffBuffers(a, b, 'big.ts')).toEqual({ binary: false, added: 4_000, removed: 4_000 })
    // 1 MB with a change every 50th line: found within the search bound; every 3rd line: not.
    const lines = Array.from({ length: 14_000 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog ${i * 7919}`)
    const one = Buffer.from(lines.join('\n') + '\n')
    const every = (n: number) => Buffer.from(lines.map((l, i) => (i % n === 0 ? l + 'x' : l)).join('\n') + '\n')
    expect(diffBuffers(one, every(50), 'f.txt')).toMatchObject({ added: 280, removed: 280, text: expect.any(String) })
    expect(diffBuffers(one, every(3), 'f.txt')).toEqual({ binary: false, added: 13_999, removed: 13_999 })
    const huge = Buffer.from(lines.join('\n').repeat(3))
    expect(huge.length).toBeGreaterThan(2 << 20)
    expect(diffBuffers(huge, Buffer.concat([huge, Buffer.from('\nmore')]), 'huge.txt')).not.toHaveProperty('text')
    // A new file: one side empty, nothing to search.
    expect(diffBuffers(null, Buffer.from('a\nb\n'), 'new.txt')).toEqual({ binary: false, added: 2, removed: 0, text: '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n' })
  })
})
