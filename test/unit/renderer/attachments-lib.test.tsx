/**
 * The pure attachment decisions (src/features/attachments/attachments.ts): limits, the parts a message becomes (and
 * that they round-trip exactly), model checks, how stored parts show as attachments, CSV parsing.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  MAX_FILES,
  MAX_FILE_BYTES,
  MAX_MESSAGE_BYTES,
  addWithLimits,
  attachmentInfoOf,
  buildPromptParts,
  modelsAccepting,
  parseCsv,
  sendBlocker,
  shownAttachment,
  toPending,
  viewModeOf,
  type PendingAttachment,
} from '../../../src/features/attachments/attachments'
import { INLINE_LIMIT_BYTES, bytesToDataUrl, parseInlinedAttachment } from '../../../shared/attachments/inlined-attachment'
import { InlineRefusedError } from '../../../shared/retake/retry-payload'

const enc = new TextEncoder()
const text = (name: string, content: string) => toPending({ name, bytes: enc.encode(content) })
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
const sized = (name: string, kind: PendingAttachment['kind'], size: number): PendingAttachment => ({
  id: name,
  name,
  size,
  mime: kind === 'image' ? 'image/png' : 'application/octet-stream',
  kind,
  bytes: new Uint8Array(0),
})

describe('addWithLimits', () => {
  it('refuses per file, per message and by count, keeping everything already accepted', () => {
    const big = sized('big.png', 'image', MAX_FILE_BYTES + 1)
    const r1 = addWithLimits([], [text('a.txt', 'a'), big])
    expect(r1.attachments.map((a) => a.name)).toEqual(['a.txt'])
    expect(r1.errors).toEqual([expect.stringMatching(/big\.png.*limited to 10\.0 MB.*not added/)])

    const halves = [sized('h1.png', 'image', MAX_FILE_BYTES), sized('h2.png', 'image', MAX_FILE_BYTES), sized('h3.png', 'image', 1)]
    const r2 = addWithLimits([], halves)
    expect(r2.attachments).toHaveLength(2)
    expect(r2.errors).toEqual([expect.stringContaining(`at most ${MAX_MESSAGE_BYTES / 1024 / 1024}.0 MB`)])

    const many = Array.from({ length: MAX_FILES + 2 }, (_, i) => text(`f${i}.txt`, 'x'))
    const r3 = addWithLimits([], many)
    expect(r3.attachments).toHaveLength(MAX_FILES)
    expect(r3.errors).toHaveLength(2)
  })

  it('refuses a text file above the inline limit and an image that did not decode', () => {
    const huge = toPending({ name: 'huge.md', bytes: enc.encode('y'.repeat(INLINE_LIMIT_BYTES + 1)) })
    const broken = { ...toPending({ name: 'broken.png', bytes: PNG }), problem: 'could not be decoded.' }
    const r = addWithLimits([], [huge, broken])
    expect(r.attachments).toEqual([])
    expect(r.errors[0]).toMatch(/huge\.md.*1\.0 MB/)
    expect(r.errors[1]).toMatch(/broken\.png.*could not be decoded/)
  })
})

describe('buildPromptParts', () => {
  it('text first, then attachments in order: text files inline, images as file parts; no empty text part', () => {
    const parts = buildPromptParts('  ', [text('a.json', '{"a":1}'), toPending({ name: 'p.png', bytes: PNG }), text('b.md', '# b')])
    expect(parts.map((p) => p.type)).toEqual(['text', 'file', 'text'])
    expect(parseInlinedAttachment((parts[0] as { text: string }).text)).toMatchObject({ name: 'a.json', mime: 'application/json' })
    expect(parts[1]).toMatchObject({ mime: 'image/png', filename: 'p.png' })
  })

  it('any UTF-8 content round-trips exactly through the inline format', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ minLength: 1, maxLength: 20 }), (content, name) => {
        const [part] = buildPromptParts('', [text(`${name}.txt`, content)])
        const back = parseInlinedAttachment((part as { text: string }).text)
        expect(back?.text).toBe(content)
        expect(back?.name).toBe(`${name}.txt`)
      }),
      { numRuns: 150 },
    )
  })

  it('throws InlineRefusedError for an oversize text file that slipped past the composer', () => {
    const huge: PendingAttachment = { ...text('x.txt', ''), bytes: enc.encode('z'.repeat(INLINE_LIMIT_BYTES + 1)) }
    expect(() => buildPromptParts('hi', [huge])).toThrow(InlineRefusedError)
  })
})

describe('model checks', () => {
  const options = [
    { key: 'a/text', capabilities: { attachment: false, input: { image: false, pdf: false } } },
    { key: 'a/img', capabilities: { attachment: true, input: { image: true, pdf: false } } },
    { key: 'a/all', capabilities: { attachment: true, input: { image: true, pdf: true } } },
    { key: 'a/unknown' },
  ]
  it('lists the models that take every needed kind, and blocks only what the model cannot take', () => {
    expect(modelsAccepting(options, ['image']).map((o) => o.key)).toEqual(['a/img', 'a/all'])
    expect(modelsAccepting(options, ['image', 'pdf']).map((o) => o.key)).toEqual(['a/all'])
    const textOnly = attachmentInfoOf(options[0]!.capabilities)
    expect(sendBlocker([{ kind: 'text' }], textOnly)).toBeNull()
    expect(sendBlocker([{ kind: 'image' }, { kind: 'pdf' }], textOnly)).toMatch(/^2 attachments cannot go/)
    expect(sendBlocker([{ kind: 'image' }], undefined)).toBeNull() // model not known: not judged
    expect(sendBlocker([{ kind: 'binary' }], attachmentInfoOf(options[2]!.capabilities))).toMatch(/^One attachment/)
  })
})

describe('shownAttachment', () => {
  it('reads inline parts, data: file parts (text decoded, images shown) and file:// parts', () => {
    const inline = buildPromptParts('', [text('n.csv', 'a,b\r\n')])[0] as { text: string }
    expect(shownAttachment({ id: 'p1', type: 'text', text: inline.text })).toMatchObject({ name: 'n.csv', inline: true, text: 'a,b\r\n', size: 5 })
    expect(shownAttachment({ id: 'p2', type: 'text', text: 'just words' })).toBeNull()
    const md = shownAttachment({ id: 'p3', type: 'file', mime: 'text/markdown', filename: 'x.md', url: bytesToDataUrl(enc.encode('\uFEFF# x'), 'text/markdown') })
    expect(md).toMatchObject({ kind: 'text', text: '\uFEFF# x', inline: false, imageUrl: null })
    const img = shownAttachment({ id: 'p4', type: 'file', mime: 'image/png', url: bytesToDataUrl(PNG, 'image/png') })
    expect(img?.imageUrl).toMatch(/^data:image\/png;base64,/)
    expect(shownAttachment({ id: 'p5', type: 'file', mime: 'text/plain', url: 'file:///w/my%20notes.txt' })).toMatchObject({ name: 'my notes.txt', bytes: null, text: null })
  })

  it('picks the viewer mode from name and mime', () => {
    expect(viewModeOf('a.md', 'text/plain')).toBe('markdown')
    expect(viewModeOf('a', 'text/csv')).toBe('csv')
    expect(viewModeOf('a.ts', 'text/x-typescript')).toBe('code')
    expect(viewModeOf('a.log', 'text/plain')).toBe('text')
  })
})

describe('parseCsv', () => {
  it('handles quotes, doubled quotes, embedded newlines, CRLF, a BOM and a missing final newline', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\n"multi\nline",2')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['multi\nline', '2'],
    ])
    expect(parseCsv('a\tb\n1\t2\n', '\t')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ])
    expect(parseCsv('')).toEqual([])
  })
})
