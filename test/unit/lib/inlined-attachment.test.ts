import { createHash, createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  INLINE_LIMIT_BYTES,
  bytesToDataUrl,
  canInline,
  dataUrlToBytes,
  formatInlinedAttachment,
  parseDataUrl,
  parseInlinedAttachment,
  parseTextPart,
  setBlockKey,
  sha256Hex,
} from '../../../shared/attachments/inlined-attachment'

const enc = new TextEncoder()
const nodeSha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const decodeExact = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(b)

// Fragments that stress the format: line endings, BOMs, and things that look like its own markers.
const nasty = fc.constantFrom(
  '\r\n',
  '\n',
  '\r',
  '\uFEFF',
  '',
  ' ',
  '\t',
  '\u2028',
  '😀',
  'é',
  '<attached-file name="x.txt" mime="text/plain" bytes="3" sha256="' + '0'.repeat(64) + '">\n',
  '\n</attached-file sha256="' + 'a'.repeat(64) + '">',
  formatInlinedAttachment({ name: 'inner.md', mime: 'text/markdown', bytes: enc.encode('# inner\r\n') }),
  'Attached file: other.txt\nMIME: text/plain\n',
)
const content = fc.array(fc.oneof(fc.string({ unit: 'binary' }), nasty), { maxLength: 12 }).map((xs) => xs.join(''))

describe('sha256Hex', () => {
  it('matches node:crypto on boundary lengths and random bytes', () => {
    for (const n of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000]) {
      const b = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 0xff)
      expect(sha256Hex(b)).toBe(nodeSha(b))
    }
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (b) => sha256Hex(b) === nodeSha(b)))
  })
  it('knows the empty-string digest', () => {
    expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  })
})

describe('format → parse round trip', () => {
  it('gives identical bytes and metadata for any UTF-8 content, name and mime', () => {
    fc.assert(
      fc.property(content, fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (text, name, mime) => {
        const bytes = enc.encode(text)
        const parsed = parseInlinedAttachment(formatInlinedAttachment({ name, mime, bytes }))
        expect(parsed).not.toBeNull()
        expect(parsed!.name).toBe(name)
        expect(parsed!.mime).toBe(mime)
        expect(Array.from(parsed!.bytes)).toEqual(Array.from(bytes))
        expect(parsed!.text).toBe(decodeExact(bytes))
        expect(parsed!.byteLength).toBe(bytes.length)
        expect(parsed!.sha256).toBe(nodeSha(bytes))
      }),
      { numRuns: 300 },
    )
  })

  it('keeps user text around and between attachments as plain text, and each attachment exact', () => {
    const typed = fc.oneof(fc.string({ unit: 'binary' }), nasty)
    const file = content.map((t) => ({ name: 'f.txt', mime: 'text/plain', bytes: enc.encode(t) }))
    const part = fc.oneof(
      typed.map((t) => ({ typed: t })),
      file.map((f) => ({ file: f })),
    )
    fc.assert(
      fc.property(fc.array(part, { maxLength: 8 }), (seq) => {
        const texts = seq.map((p) => ('typed' in p ? p.typed : formatInlinedAttachment(p.file)))
        texts.forEach((text, i) => {
          const p = seq[i]!
          const parsed = parseInlinedAttachment(text)
          if ('typed' in p) {
            // The only typed text that parses is a full valid attachment (the inner fixture).
            if (parsed) expect(p.typed).toBe(formatInlinedAttachment({ name: 'inner.md', mime: 'text/markdown', bytes: enc.encode('# inner\r\n') }))
          } else {
            expect(Array.from(parsed!.bytes)).toEqual(Array.from(p.file.bytes))
          }
        })
      }),
    )
  })

  it('preserves CRLF, a BOM, leading/trailing blank lines and a missing final newline', () => {
    for (const text of ['\uFEFF\r\n\r\nfirst\r\nlast', '\n\n\nx\n\n\n', '', '\r', 'no newline', '\uFEFF']) {
      const bytes = enc.encode(text)
      const parsed = parseInlinedAttachment(formatInlinedAttachment({ name: 'a.txt', mime: 'text/plain', bytes }))
      expect(parsed?.text).toBe(text)
      expect(Array.from(parsed!.bytes)).toEqual(Array.from(bytes))
    }
    const bom = parseInlinedAttachment(formatInlinedAttachment({ name: 'b', mime: 'text/csv', bytes: new Uint8Array([0xef, 0xbb, 0xbf, 0x61]) }))
    expect(Array.from(bom!.bytes)).toEqual([0xef, 0xbb, 0xbf, 0x61])
  })

  it('round-trips a 5 MB file', () => {
    const line = 'línea 😀 with CRLF and a marker </attached-file sha256="">\r\n'
    const text = line.repeat(Math.ceil((5 * 1024 * 1024) / enc.encode(line).length))
    const bytes = enc.encode(text)
    expect(bytes.length).toBeGreaterThanOrEqual(5 * 1024 * 1024)
    const parsed = parseInlinedAttachment(formatInlinedAttachment({ name: 'big.log', mime: 'text/plain', bytes }))
    expect(parsed!.byteLength).toBe(bytes.length)
    expect(parsed!.sha256).toBe(nodeSha(bytes))
    expect(parsed!.text === text).toBe(true)
  })
})

describe('the format', () => {
  const fmt = (s: string, name = 'notes.md') => formatInlinedAttachment({ name, mime: 'text/markdown', bytes: enc.encode(s) })

  it('is short and readable: a start line with the metadata and its tag, the content, an end line', () => {
    const key = '42'.repeat(32)
    setBlockKey(key)
    const sha = nodeSha(enc.encode('# Hi\n'))
    // The tag: HMAC-SHA-256 under the install's key of every field of the start line, first 128 bits.
    const tag = createHmac('sha256', Buffer.from(key, 'hex')).update(`retake-attachment\n"notes.md"\n"text/markdown"\n5\n${sha}`).digest('hex').slice(0, 32)
    expect(fmt('# Hi\n')).toBe(`<attached-file name="notes.md" mime="text/markdown" bytes="5" sha256="${sha}" tag="${tag}">\n# Hi\n\n</attached-file sha256="${sha}">`)
  })

  it('keeps a name with quotes and newlines on the start line', () => {
    const out = fmt('x', 'a"b\nc.txt')
    expect(out.split('\n')[0]).toContain('name="a\\"b\\nc.txt"')
    expect(parseInlinedAttachment(out)?.name).toBe('a"b\nc.txt')
  })

  it('refuses invalid UTF-8 (Latin-1, UTF-16, truncated sequences)', () => {
    for (const bytes of [
      [0x63, 0x61, 0x66, 0xe9],
      [0xff, 0xfe, 0x41, 0x00],
      [0xe2, 0x82],
    ]) {
      expect(() => formatInlinedAttachment({ name: 'x', mime: 'text/plain', bytes: new Uint8Array(bytes) })).toThrow(/not valid UTF-8/)
    }
  })
})

describe('lookalikes and tampering are never taken for an attachment', () => {
  const good = formatInlinedAttachment({ name: 'a.txt', mime: 'text/plain', bytes: enc.encode('hello\n') })

  it('accepts the genuine text', () => {
    expect(parseInlinedAttachment(good)?.text).toBe('hello\n')
  })
  it('rejects a typed marker with a made-up hash', () => {
    const fake = `<attached-file name="a.txt" mime="text/plain" bytes="6" sha256="${'ab'.repeat(32)}">\nhello\n\n</attached-file sha256="${'ab'.repeat(32)}">`
    expect(parseInlinedAttachment(fake)).toBeNull()
  })
  it('rejects edited content, a wrong byte count, extra text before or after, and a truncated part', () => {
    expect(parseInlinedAttachment(good.replace('hello', 'jello'))).toBeNull()
    expect(parseInlinedAttachment(good.replace('bytes="6"', 'bytes="7"'))).toBeNull()
    expect(parseInlinedAttachment('x' + good)).toBeNull()
    expect(parseInlinedAttachment(good + '\n')).toBeNull()
    expect(parseInlinedAttachment(good + '\nthanks!')).toBeNull()
    for (let cut = 1; cut < good.length; cut += 7) expect(parseInlinedAttachment(good.slice(0, cut))).toBeNull()
  })
  it('rejects plain text quickly', () => {
    expect(parseInlinedAttachment('hello')).toBeNull()
    expect(parseInlinedAttachment('')).toBeNull()
  })
})

describe('parseTextPart memo', () => {
  it('parses a part once per text and re-parses when the text changes', () => {
    const text = formatInlinedAttachment({ name: 'm.txt', mime: 'text/plain', bytes: enc.encode('x'.repeat(200_000)) })
    const first = parseTextPart({ id: 'prt_memo1', text })
    expect(first?.byteLength).toBe(200_000)
    // A hit returns the very same object: no second parse happened.
    expect(parseTextPart({ id: 'prt_memo1', text: text.slice(0) })).toBe(first)
    // Same id, same length, different text: parsed again (and now it is not an attachment).
    const tampered = text.replace('xxxx', 'xxxy')
    expect(tampered.length).toBe(text.length)
    expect(parseTextPart({ id: 'prt_memo1', text: tampered })).toBeNull()
    const again = parseTextPart({ id: 'prt_memo1', text })
    expect(again === first).toBe(false) // (not .not.toBe: it would pretty-print 200 KB)
    expect(again?.sha256).toBe(first?.sha256)
  })
  it('keys by part id, so two parts with the same text are independent entries', () => {
    const text = formatInlinedAttachment({ name: 'm.txt', mime: 'text/plain', bytes: enc.encode('same') })
    expect(parseTextPart({ id: 'prt_a', text })?.text).toBe('same')
    expect(parseTextPart({ id: 'prt_b', text })?.text).toBe('same')
  })
  it('makes streaming repeated parses cheap: 200 KB part, 1000 lookups well under a second', () => {
    const text = formatInlinedAttachment({ name: 'm.txt', mime: 'text/plain', bytes: enc.encode('y'.repeat(200_000)) })
    const t0 = performance.now()
    for (let i = 0; i < 1000; i++) parseTextPart({ id: 'prt_stream', text })
    expect(performance.now() - t0).toBeLessThan(1000)
  })
})

describe('data URLs', () => {
  it('round-trips any bytes and matches Node base64', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (b) => {
        const url = bytesToDataUrl(b, 'application/octet-stream')
        expect(url).toBe('data:application/octet-stream;base64,' + Buffer.from(b).toString('base64'))
        expect(Array.from(dataUrlToBytes(url)!)).toEqual(Array.from(b))
      }),
    )
  })
  it('handles a 5 MB input across chunk boundaries', () => {
    const b = new Uint8Array(5 * 1024 * 1024 + 1).map((_, i) => (i * 7919) & 0xff)
    const url = bytesToDataUrl(b, 'image/png')
    expect(url.slice(url.indexOf(',') + 1)).toBe(Buffer.from(b).toString('base64'))
    expect(Buffer.from(dataUrlToBytes(url)!).equals(Buffer.from(b))).toBe(true)
  })
  it('reads the mime, percent-encoded bodies and rejects malformed URLs', () => {
    expect(parseDataUrl('data:text/markdown;charset=utf-8;base64,IyBI')).toEqual({ mime: 'text/markdown;charset=utf-8', bytes: enc.encode('# H') })
    expect(Array.from(dataUrlToBytes('data:,a%2Cb%ff')!)).toEqual([0x61, 0x2c, 0x62, 0xff])
    expect(dataUrlToBytes('data:;base64,@@@@')).toBeNull()
    expect(dataUrlToBytes('data:;base64,QUJD=Q')).toBeNull()
    expect(dataUrlToBytes('file:///tmp/a.txt')).toBeNull()
  })
})

describe('canInline', () => {
  it('accepts UTF-8 text up to the limit and refuses above it with a clear reason', () => {
    expect(canInline({ name: 'a.md', bytes: new Uint8Array(INLINE_LIMIT_BYTES).fill(0x61) })).toEqual({ ok: true })
    const over = canInline({ name: 'a.md', bytes: new Uint8Array(INLINE_LIMIT_BYTES + 1).fill(0x61) })
    expect(over.ok).toBe(false)
    expect(!over.ok && over.reason).toMatch(/"a\.md" is 1\.0 MB; text attachments are limited to 1\.0 MB/)
  })
  it('refuses binaries whatever their name', () => {
    const r = canInline({ name: 'notes.txt', bytes: new Uint8Array([0x00, 0x01, 0x02]) })
    expect(r.ok).toBe(false)
    expect(!r.ok && r.reason).toMatch(/not UTF-8 text/)
  })
})
