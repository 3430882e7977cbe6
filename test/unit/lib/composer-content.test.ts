import { describe, expect, it } from 'vitest'
import { composerContentOf } from '../../../src/features/attachments/composer-content'
import { bytesToDataUrl, formatInlinedAttachment } from '../../../shared/attachments/inlined-attachment'

const enc = (s: string) => new TextEncoder().encode(s)

describe('composerContentOf', () => {
  it('gives back typed text and every attachment with its exact bytes', () => {
    const md = enc('\ufeff# notes\r\n\r\nline\n')
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2])
    const out = composerContentOf([
      { type: 'text', text: 'first paragraph' },
      { type: 'text', text: formatInlinedAttachment({ name: 'notes.md', mime: 'text/markdown', bytes: md }) },
      { type: 'file', mime: 'image/png', filename: 'shot.png', url: bytesToDataUrl(png, 'image/png') },
      { type: 'text', text: 'second paragraph' },
      { type: 'agent', name: 'plan' },
    ])
    expect(out.text).toBe('first paragraph\n\nsecond paragraph')
    expect(out.files.map((f) => [f.name, f.type])).toEqual([
      ['notes.md', 'text/markdown'],
      ['shot.png', 'image/png'],
    ])
    expect(Array.from(out.files[0].bytes)).toEqual(Array.from(md))
    expect(Array.from(out.files[1].bytes)).toEqual(Array.from(png))
  })
  it('keeps typed text that only looks like an attachment as text', () => {
    const fake = '<attached-file name="x" mime="text/plain" bytes="3" sha256="' + '0'.repeat(64) + '">\nabc\n</attached-file sha256="' + '0'.repeat(64) + '">'
    expect(composerContentOf([{ type: 'text', text: fake }])).toEqual({ text: fake, files: [] })
  })
})
