// Names that are not UTF-8 in key form (surrogateescape) and back, and how they are shown.
import { describe, expect, it } from 'vitest'
import { fromBytes, hasRawBytes, toBytes } from '../../../core/checkpoints/store/os-names'
import { displayPath } from '../../../shared/display-path'

describe('file names as bytes', () => {
  it('round-trips every byte string, and leaves valid UTF-8 (emoji, a real U+FFFD) as it is', () => {
    let x = 7
    for (let n = 0; n < 2000; n++) {
      const len = 1 + (n % 12)
      const b = Buffer.alloc(len)
      for (let i = 0; i < len; i++) {
        x = (x * 1103515245 + 12345) & 0x7fffffff
        b[i] = x >> 16
      }
      expect(toBytes(fromBytes(b)).equals(b)).toBe(true)
    }
    for (const s of ['plain.txt', 'café', '😀 emoji', '名前.txt', 'x\uFFFDy']) {
      expect(fromBytes(Buffer.from(s))).toBe(s)
      expect(hasRawBytes(s)).toBe(false)
    }
  })

  it('shows raw bytes as \\xNN and nothing else differently', () => {
    const key = fromBytes(Buffer.from([0x62, 0x61, 0x64, 0xff, 0x2f, 0xc3, 0x28]))
    expect(hasRawBytes(key)).toBe(true)
    expect(displayPath(key)).toBe('bad\\xff/\\xc3(')
    expect(displayPath('😀/名前.txt')).toBe('😀/名前.txt')
  })
})
