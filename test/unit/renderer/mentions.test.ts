/** `@` mentions: where one is being typed, what the popup offers, and the parts a prompt gets (pure). */
import { describe, expect, it } from 'vitest'
import { mentionAt, mentionItems, mentionParts } from '../../../src/features/chat/mentions'

describe('mentionAt', () => {
  it('finds the @word the caret ends, at the start or after a space only', () => {
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' })
    expect(mentionAt('look at @src/ap', 15)).toEqual({ start: 8, query: 'src/ap' })
    expect(mentionAt('look at @src/ap and more', 15)).toEqual({ start: 8, query: 'src/ap' })
    expect(mentionAt('mail me@example.com', 19)).toBeNull()
    expect(mentionAt('@done then text', 15)).toBeNull()
  })
})

describe('mentionItems', () => {
  const found = { files: ['src/app.ts', 'src/'], agents: [{ name: 'general', description: 'General agent' }, { name: 'explore' }] }
  it('offers agents that start with the word, then files; picking replaces the word and adds a space', () => {
    const items = mentionItems('see @', 5, found)
    expect(items.map((i) => [i.label, i.detail])).toEqual([
      ['@general', 'General agent'],
      ['@explore', 'agent'],
      ['src/app.ts', 'file'],
      ['src/', 'folder'],
    ])
    expect(mentionItems('see @ge', 7, found)[0]!.text).toBe('see @general ')
    const mid = mentionItems('see @sr then', 7, found).find((i) => i.label === 'src/app.ts')!
    expect(mid.text).toBe('see @src/app.ts then')
    expect(mid.mention).toEqual({ kind: 'file', path: 'src/app.ts' })
    expect(mentionItems('no mention', 10, found)).toEqual([])
  })
})

describe('mentionParts', () => {
  it('sends a picked file as opencode’s file:// part pointing at its @path, an agent as an agent part', () => {
    const text = 'read @src/app.ts and ask @general'
    const parts = mentionParts(
      text,
      [
        { kind: 'file', path: 'src/app.ts' },
        { kind: 'agent', name: 'general' },
      ],
      '/home/u/my project',
    )
    expect(parts).toEqual([
      {
        type: 'file',
        mime: 'text/plain',
        filename: 'src/app.ts',
        url: 'file:///home/u/my%20project/src/app.ts',
        source: { type: 'file', path: '/home/u/my project/src/app.ts', text: { value: '@src/app.ts', start: 5, end: 16 } },
      },
      { type: 'agent', name: 'general', source: { value: '@general', start: 25, end: 33 } },
    ])
  })

  it('drops a mention whose @path left the text, and sends one part per mention', () => {
    const picked = [
      { kind: 'file' as const, path: 'a.ts' },
      { kind: 'file' as const, path: 'a.ts' },
      { kind: 'file' as const, path: 'b.ts' },
    ]
    expect(mentionParts('only @a.ts here, @a.tsx is another', picked, '/p').map((p) => (p.type === 'file' ? p.filename : ''))).toEqual(['a.ts'])
  })
})
