/** Row heights estimated from content, and measured heights kept per message id. */
import { describe, expect, it } from 'vitest'
import { estimateRowHeight, measuredHeight, rememberHeight } from '../../../src/features/chat/row-height'
import { assistant, user } from './fixtures'

const withText = (text: string) => {
  const m = assistant('msg_a', 'msg_u')
  m.parts = [{ id: 'prt_1', sessionID: 's', messageID: 'msg_a', type: 'text', text } as never]
  return m
}

describe('estimateRowHeight', () => {
  it('grows with wrapped prose and with code lines, and a narrow window makes prose taller', () => {
    const short = estimateRowHeight(withText('ok'), 1000)
    const prose = 'word '.repeat(400)
    const long = estimateRowHeight(withText(prose), 1000)
    expect(long).toBeGreaterThan(short + 200)
    expect(estimateRowHeight(withText(prose), 480)).toBeGreaterThan(long * 1.5)
    const code = estimateRowHeight(withText('```ts\n' + 'x\n'.repeat(30) + '```'), 1000)
    expect(code).toBeGreaterThan(short + 30 * 19)
    // A fence still open while streaming counts its lines too.
    expect(estimateRowHeight(withText('```ts\n' + 'x\n'.repeat(30)), 1000)).toBeGreaterThan(short + 30 * 19)
  })

  it('matches the heights Chromium measured for a bench:ui turn (1280×800 window: a 1000 px timeline)', () => {
    // bench/ui-server.ts turnText(26): typed by the user (shown as typed), echoed as markdown.
    const typed = [
      'Turn 26: **refactor** the `parse` step and keep the [docs](https://example.com/26) in sync.',
      '',
      '```ts',
      'export function parse26(input: string): number[] {',
      "  return input.split(',').map((s) => Number(s.trim()) * 26)",
      '}',
      '```',
      '',
      '- item one of 26',
      '- item two with `code 26`',
    ].join('\n')
    // Measured: the user row 292 px (ten 21 px lines in the bubble), the answer 261 px (a paragraph
    // with inline code, a three-line code block, a two-item list). Before, the estimates were 235
    // and 215: a 1,000-turn transcript grew by 14 % on the way up.
    expect(estimateRowHeight(user('msg_u', typed), 1000)).toBe(292)
    expect(estimateRowHeight(withText(`echo: ${typed}`), 1000)).toBe(261)
  })

  it('a user bubble is taller than the same text answered (its padding)', () => {
    const u = user('msg_u', 'same text')
    const a = withText('same text')
    expect(estimateRowHeight(u, 1000)).toBeGreaterThan(estimateRowHeight(a, 1000))
  })

  it('measured heights are remembered by message id (the most recent win)', () => {
    expect(measuredHeight('msg_x')).toBeUndefined()
    rememberHeight('msg_x', 321)
    rememberHeight('msg_x', 333)
    expect(measuredHeight('msg_x')).toBe(333)
    rememberHeight('msg_y', 0) // nothing measured: not remembered
    expect(measuredHeight('msg_y')).toBeUndefined()
  })
})
