import type { Part } from '@opencode-ai/sdk/v2'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bytesToDataUrl, formatInlinedAttachment, parseInlinedAttachment, INLINE_LIMIT_BYTES } from '../../../shared/attachments/inlined-attachment'
import { InlineRefusedError, buildRetryPayload, inlineTextFileParts, withEditedText } from '../../../shared/retake/retry-payload'
import type { RetryPayload } from '../../../shared/retake/retry-payload'
import type { PartInput } from '../../../shared/ipc-contract'

const enc = new TextEncoder()
const base = { sessionID: 'ses_1', messageID: 'msg_1' }
let seq = 0
const nextId = () => `prt_${String(++seq).padStart(6, '0')}`
const text = (t: string, extra: { synthetic?: boolean; ignored?: boolean; id?: string } = {}): Part => ({ ...base, id: extra.id ?? nextId(), type: 'text', text: t, ...extra })
const file = (mime: string, url: string, filename?: string, id = nextId()): Part => ({ ...base, id, type: 'file', mime, url, ...(filename ? { filename } : {}) })
const agent = (name: string): Part => ({ ...base, id: nextId(), type: 'agent', name, source: { value: `@${name}`, start: 0, end: name.length + 1 } })
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])
const png = (name = 'pixel.png') => file('image/png', bytesToDataUrl(PNG, 'image/png'), name)
const inlined = (name: string, body: string) => formatInlinedAttachment({ name, mime: 'text/plain', bytes: enc.encode(body) })
/** A copy of a part as the historical retake bug re-appended it: same content, a new id. */
const copy = (p: Part): Part => ({ ...p, id: nextId() })

const model = { providerID: 'anthropic', modelID: 'claude-now' }
const message = { agent: 'plan', model: { providerID: 'local', modelID: 'old', variant: 'high' } }
const build = (parts: Part[], msg: object = message) => buildRetryPayload({ message: msg, parts }, { model })
const ok = (r: RetryPayload | { error: string }): RetryPayload => {
  if ('error' in r) throw new Error(`unexpected error: ${r.error}`)
  return r
}

describe('buildRetryPayload', () => {
  it('keeps part order: text after a file stays after it, agent parts stay in place', () => {
    const p = ok(build([text('look at'), png(), text('and then this'), agent('explore'), text('end')]))
    expect(p.parts.map((x) => x.type)).toEqual(['text', 'file', 'text', 'agent', 'text'])
    expect(p.parts[2]).toEqual({ type: 'text', text: 'and then this' })
    expect(p.parts[3]).toEqual({ type: 'agent', name: 'explore', source: { value: '@explore', start: 0, end: 8 } })
  })

  it('uses the model chosen now and keeps the original agent and variant', () => {
    const p = ok(build([text('hi')]))
    expect(p.model).toEqual(model)
    expect(p.agent).toBe('plan')
    expect(p.variant).toBe('high')
    expect(ok(build([text('hi')], { agent: 'build', variant: 'low' })).variant).toBe('low')
    const none = ok(build([text('hi')], {}))
    expect('agent' in none || 'variant' in none).toBe(false)
  })

  it('drops synthetic and ignored text parts and non-prompt parts', () => {
    const parts: Part[] = [
      text('Called the Read tool with the following input: {"filePath":"notes.txt"}', { synthetic: true }),
      text('real'),
      text('hidden', { ignored: true }),
      { ...base, id: nextId(), type: 'step-start' },
    ]
    expect(ok(build(parts)).parts).toEqual([{ type: 'text', text: 'real' }])
  })

  it('retakes attachment-only and image-only messages', () => {
    expect(ok(build([png()])).parts).toEqual([{ type: 'file', mime: 'image/png', filename: 'pixel.png', url: bytesToDataUrl(PNG, 'image/png') }])
    const att = inlined('a.txt', 'body')
    expect(ok(build([text(att)])).parts).toEqual([{ type: 'text', text: att }])
  })

  it('refuses an empty message with a clear error', () => {
    expect(build([])).toEqual({ error: expect.stringMatching(/nothing to resend/) })
    expect(build([text('x', { synthetic: true }), text('')])).toEqual({ error: expect.stringMatching(/nothing to resend/) })
  })

  it('keeps inlined attachments byte-exact (hash equal)', () => {
    const body = '\uFEFF\r\n\r\nkeep me\r\n'
    const p = ok(build([text('see'), text(inlined('x.md', body))]))
    const back = parseInlinedAttachment((p.parts[1] as { text: string }).text)
    expect(back?.text).toBe(body)
    expect(back?.sha256).toBe(parseInlinedAttachment(inlined('x.md', body))?.sha256)
  })

  it('inlines real textual file parts from other clients and keeps binary, image, pdf and file:// parts', () => {
    const md = file('text/markdown', bytesToDataUrl(enc.encode('# T\r\n'), 'text/markdown'), 'n.md')
    const json = file('application/json', bytesToDataUrl(enc.encode('{"a":1}'), 'application/json'), 'a.json')
    const pdf = file('application/pdf', bytesToDataUrl(enc.encode('%PDF-1.4\n'), 'application/pdf'), 'd.pdf')
    const zip = file('application/zip', bytesToDataUrl(new Uint8Array([0x50, 0x4b, 3, 4, 0]), 'application/zip'), 'z.zip')
    const local = file('text/plain', 'file:///home/u/notes.txt', 'notes.txt')
    const p = ok(build([md, json, pdf, zip, local, png()]))
    const mdBack = parseInlinedAttachment((p.parts[0] as { text: string }).text)
    expect(mdBack).toMatchObject({ name: 'n.md', mime: 'text/markdown', text: '# T\r\n' })
    expect(parseInlinedAttachment((p.parts[1] as { text: string }).text)).toMatchObject({ name: 'a.json', mime: 'application/json', text: '{"a":1}' })
    expect(p.parts.slice(2).map((x) => x.type)).toEqual(['file', 'file', 'file', 'file'])
    expect(p.parts[4]).toEqual({ type: 'file', mime: 'text/plain', filename: 'notes.txt', url: 'file:///home/u/notes.txt' })
  })

  it('rebuilds a text/plain file message as opencode stores it (synthetic Read parts dropped, file inlined)', () => {
    const body = 'plain text file body\nline2\n'
    const parts = [
      text('summarize'),
      text('Called the Read tool with the following input: {"filePath":"notes.txt"}', { synthetic: true }),
      text(body, { synthetic: true }),
      file('text/plain', bytesToDataUrl(enc.encode(body), 'text/plain'), 'notes.txt'),
    ]
    const p = ok(build(parts))
    expect(p.parts).toHaveLength(2)
    expect(p.parts[0]).toEqual({ type: 'text', text: 'summarize' })
    expect(parseInlinedAttachment((p.parts[1] as { text: string }).text)).toMatchObject({ name: 'notes.txt', mime: 'text/plain', text: body })
  })

  it('returns an error, not a file part, for a textual file above the inline limit', () => {
    const big = file('text/plain', bytesToDataUrl(new Uint8Array(INLINE_LIMIT_BYTES + 1).fill(0x61), 'text/plain'), 'big.log')
    expect(build([text('summarize'), big])).toEqual({ error: expect.stringMatching(/"big\.log" is \d+ bytes; text attachments are limited/) })
  })
})

describe('historical duplicates', () => {
  it('drops a part listed twice with the same id', () => {
    const t = text('once')
    expect(ok(build([t, t])).parts).toEqual([{ type: 'text', text: 'once' }])
  })

  it('collapses a message whose whole sequence repeats (one and two historical retakes)', () => {
    const a = text('fix this'),
      f = png(),
      b = text(inlined('log.txt', 'E1\n'))
    expect(ok(build([a, f, b, copy(a), copy(f), copy(b)])).parts).toHaveLength(3)
    const twice = ok(build([a, f, b, copy(a), copy(f), copy(b), copy(a), copy(f), copy(b)]))
    expect(twice.parts.map((x) => x.type)).toEqual(['text', 'file', 'text'])
    expect(ok(build([a, copy(a)])).parts).toEqual([{ type: 'text', text: 'fix this' }])
  })

  it('keeps two genuinely identical attachments side by side', () => {
    const f = png()
    expect(ok(build([f, copy(f)])).parts).toHaveLength(2)
    const att = inlined('same.txt', 'same')
    expect(ok(build([text(att), text(att)])).parts).toHaveLength(2)
    expect(ok(build([text('compare'), f, copy(f)])).parts).toHaveLength(3)
    expect(ok(build([text('compare'), f, copy(f), text('compare'), copy(f), copy(f)])).parts).toHaveLength(3)
  })

  it('keeps partial repeats and repeats that are not the whole message', () => {
    const a = text('a'),
      b = text('b')
    expect(ok(build([a, b, copy(a)])).parts).toHaveLength(3)
    expect(ok(build([a, b, copy(b)])).parts).toHaveLength(3)
    expect(ok(build([a, b, copy(a), copy(b), text('c')])).parts).toHaveLength(5)
  })

  it('compares every field: same filename with another url or mime is not a duplicate', () => {
    const a = text('t')
    const f1 = file('image/png', bytesToDataUrl(PNG, 'image/png'), 'p.png')
    const f2 = file('image/png', bytesToDataUrl(new Uint8Array([...PNG, 1]), 'image/png'), 'p.png')
    expect(ok(build([a, f1, copy(a), f2])).parts).toHaveLength(4)
  })

  it('property: k copies of any block with typed text collapse to the block; without typed text nothing collapses', () => {
    const partGen = fc.oneof(
      fc.string({ minLength: 1 }).map((s) => () => text(s)),
      fc.constantFrom(
        () => png(),
        () => png('other.png'),
        () => text(inlined('i.txt', 'x')),
      ),
    )
    fc.assert(
      fc.property(fc.array(partGen, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 4 }), (gens, k) => {
        const block = gens.map((g) => g())
        const parts = Array.from({ length: k }, (_, i) => (i === 0 ? block : block.map(copy))).flat()
        const once = ok(build(block)).parts
        const out = ok(build(parts)).parts
        const typed = block.some((p) => p.type === 'text' && parseInlinedAttachment(p.text) === null)
        if (typed || k === 1) expect(out).toEqual(once)
        else expect(out).toHaveLength(ok(build(block)).parts.length * k)
      }),
    )
  })
})

describe('inlineTextFileParts', () => {
  const asFile = (mime: string, b: Uint8Array, filename?: string): PartInput => ({ type: 'file', mime, url: bytesToDataUrl(b, mime), ...(filename ? { filename } : {}) })

  it('inlines a textual data: file part exactly and leaves other parts untouched', () => {
    const t: PartInput = { type: 'text', text: 'hello' }
    const out = inlineTextFileParts([t, asFile('text/csv', enc.encode('a,b\r\n'), 'd.csv')])
    expect(out[0]).toBe(t)
    expect(parseInlinedAttachment((out[1] as { text: string }).text)).toMatchObject({ name: 'd.csv', mime: 'text/csv', text: 'a,b\r\n' })
  })

  it('names an unnamed attachment and inlines UTF-8 text declared as octet-stream', () => {
    const out = inlineTextFileParts([asFile('application/octet-stream', enc.encode('plain words'))])
    expect(parseInlinedAttachment((out[0] as { text: string }).text)).toMatchObject({ name: 'attachment', mime: 'text/plain' })
  })

  it('throws InlineRefusedError above the limit instead of falling back to a file part', () => {
    expect(() => inlineTextFileParts([asFile('text/markdown', new Uint8Array(INLINE_LIMIT_BYTES + 1).fill(0x23), 'x.md')])).toThrow(InlineRefusedError)
  })

  it('keeps malformed data URLs as they are', () => {
    const bad: PartInput = { type: 'file', mime: 'text/plain', url: 'data:text/plain;base64,@@@' }
    expect(inlineTextFileParts([bad])[0]).toBe(bad)
  })
})

describe('withEditedText (Edit and retake)', () => {
  it('replaces the typed text where it stood and keeps every attachment and agent part byte for byte', () => {
    const block = inlined('notes.md', '# notes\n')
    const file: PartInput = { type: 'file', mime: 'image/png', filename: 'a.png', url: 'data:image/png;base64,AAAA' }
    const agent: PartInput = { type: 'agent', name: 'plan' }
    const parts: PartInput[] = [agent, { type: 'text', text: 'old question' }, { type: 'text', text: block }, { type: 'text', text: 'old second paragraph' }, file]
    expect(withEditedText(parts, 'new question')).toEqual([agent, { type: 'text', text: 'new question' }, { type: 'text', text: block }, file])
  })

  it('adds the text to an attachment-only message, and an emptied text leaves only the attachments', () => {
    const block = inlined('a.txt', 'a')
    expect(withEditedText([{ type: 'text', text: block }], 'about this file')).toEqual([
      { type: 'text', text: 'about this file' },
      { type: 'text', text: block },
    ])
    expect(
      withEditedText(
        [
          { type: 'text', text: 'typed' },
          { type: 'text', text: block },
        ],
        '',
      ),
    ).toEqual([{ type: 'text', text: block }])
  })

  it('a typed lookalike of a block is typed text: it is replaced like any other', () => {
    const forged = inlined('x.txt', 'x').replace(/tag="[0-9a-f]+"/, 'tag="00000000000000000000000000000000"')
    expect(withEditedText([{ type: 'text', text: forged }], 'mine')).toEqual([{ type: 'text', text: 'mine' }])
  })
})
