import { describe, expect, it } from 'vitest'
import { diffBuffers } from '../../../core/checkpoints/plan/diff'

const buf = (lines: string[]) => Buffer.from(lines.join('\n') + '\n')

/** Applies a unified diff to `from` (the test's own reader of the format). */
function applyUnified(from: string[], diff: string): string[] {
  const out: string[] = []
  let at = 0
  for (const hunk of diff.split('\n@@').slice(1)) {
    const [head, ...body] = hunk.split('\n')
    const start = Number(/-(\d+)/.exec(head!)![1])
    const aStart = body.some((l) => l.startsWith(' ') || l.startsWith('-')) ? start - 1 : start
    while (at < aStart) out.push(from[at++]!)
    for (const l of body) {
      if (l === '') continue
      if (l[0] === ' ') out.push(from[at++]!)
      else if (l[0] === '-') at++
      else if (l[0] === '+') out.push(l.slice(1))
    }
  }
  while (at < from.length) out.push(from[at++]!)
  return out
}

describe('plan diffs', () => {
  it('a few edits in a 1 MB text file give an exact, small unified diff', () => {
    const a = Array.from({ length: 30_000 }, (_, i) => `line ${i} of a long generated source file, padded`)
    const b = [...a]
    b[10] = 'changed near the top'
    b.splice(15_000, 1, 'changed in the middle', 'and one more line')
    b[29_990] = 'changed near the end'
    const from = buf(a)
    expect(from.length).toBeGreaterThan(1_000_000)
    const d = diffBuffers(from, buf(b), 'big.txt')
    expect(d).toMatchObject({ binary: false, added: 4, removed: 3 })
    expect(d.text!.split('\n').filter((l) => l.startsWith('@@'))).toHaveLength(3)
    expect(applyUnified(a, d.text!)).toEqual(b)
  })

  it('random edits round-trip through the unified diff', () => {
    let seed = 7
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n
    for (let round = 0; round < 200; round++) {
      const a = Array.from({ length: rnd(40) }, () => `l${rnd(8)}`)
      const b = [...a]
      for (let e = rnd(6); e > 0; e--) {
        const i = rnd(b.length + 1)
        if (rnd(2) && b.length) b.splice(Math.min(i, b.length - 1), 1)
        else b.splice(i, 0, `n${rnd(8)}`)
      }
      const d = diffBuffers(buf(a), buf(b), 'f')
      if (d.text) expect(applyUnified(a, d.text), `round ${round}`).toEqual(b)
      else expect(a).toEqual(b)
    }
  })

  it('past the edit cap: counts of the changed middle instead of a diff', () => {
    const a = Array.from({ length: 6_000 }, (_, i) => `old ${i}`)
    const b = ['same start', ...Array.from({ length: 6_000 }, (_, i) => `new ${i}`)]
    a.unshift('same start')
    const d = diffBuffers(buf(a), buf(b), 'rewritten.txt')
    expect(d).toEqual({ binary: false, added: 6_000, removed: 6_000 })
  })

  it('a 1 MB rewrite of every line gets counts at once, not a search that holds the thread', () => {
    const a = Array.from({ length: 16_000 }, (_, i) => `line ${i}: the quick brown fox jumps over the lazy dog ${i * 7919}`)
    const from = buf(a)
    expect(from.length).toBeGreaterThan(1_000_000)
    const started = performance.now()
    const d = diffBuffers(from, buf(a.map((l) => l + ' (rewritten)')), 'rewritten.txt')
    expect(d).toEqual({ binary: false, added: 16_000, removed: 16_000 })
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it('a last line that lost its newline is a change, shown as such', () => {
    const d = diffBuffers(Buffer.from('a\nb\n'), Buffer.from('a\nb'), 'f')
    expect(d).toMatchObject({ added: 1, removed: 1, text: '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n' })
  })
})
