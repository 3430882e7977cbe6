/** Row heights estimated from content, and measured heights kept per message id. */
import { describe, expect, it } from 'vitest'
import { estimateRowHeight, measuredHeight, rememberHeight } from '../../../src/lib/row-height'
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
