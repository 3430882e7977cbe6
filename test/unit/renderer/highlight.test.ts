// highlight.js on demand: a fence's name finds its grammar by alias; code is plain until the
// grammar has loaded, then highlighted, and subscribers hear that it arrived.
import { describe, expect, it, vi } from 'vitest'
import { grammarName, grammarPending, grammarVersion, highlightCode, loadGrammar, subscribeGrammars } from '../../../src/ui/markdown/highlight'

describe('on-demand highlighting', () => {
  it('finds grammars by their aliases, and none for unknown names', () => {
    expect(grammarName('ts')).toBe('typescript')
    expect(grammarName('TSX')).toBe('typescript')
    expect(grammarName('sh')).toBe('bash')
    expect(grammarName('html')).toBe('xml')
    expect(grammarName('python')).toBe('python')
    expect(grammarName('brainfuck')).toBeNull()
    expect(highlightCode('x', 'brainfuck')).toBeNull()
    expect(grammarPending('brainfuck')).toBe(false)
  })

  it('plain first, highlighted once the grammar is in, and the version tells subscribers', async () => {
    const heard = vi.fn()
    const unsubscribe = subscribeGrammars(heard)
    const before = grammarVersion()
    expect(highlightCode('fn main() {}', 'rs')).toBeNull()
    expect(grammarPending('rust')).toBe(true)
    await loadGrammar('rust')
    expect(grammarPending('rs')).toBe(false)
    expect(grammarVersion()).toBeGreaterThan(before)
    expect(heard).toHaveBeenCalled()
    expect(highlightCode('fn main() {}', 'rs')).toContain('hljs-keyword')
    unsubscribe()
  })
})
