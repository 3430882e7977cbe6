import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkModelSupport, detectFileType, isTextualMime, isUtf8Text } from '../../../shared/attachments/file-type'

const enc = new TextEncoder()
const bytes = (...xs: (number[] | string)[]) => new Uint8Array(xs.flatMap((x) => (typeof x === 'string' ? Array.from(enc.encode(x)) : x)))

// A corpus of real file kinds, built byte by byte (headers as the formats define them).
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR', [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0])
const GIF = bytes('GIF89a', [1, 0, 1, 0, 0x80, 0, 0])
const WEBP = bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ')
const PDF = bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n')
const ZIP = bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0], 'mimetypeapplication/epub+zip')
const SQLITE = bytes('SQLite format 3', [0, 0x10, 0, 1, 1, 0, 0x40, 0x20, 0x20])
const UTF16LE_BOM = bytes([0xff, 0xfe], [0x68, 0, 0x69, 0, 0x0a, 0])
const UTF16BE_BOM = bytes([0xfe, 0xff], [0, 0x68, 0, 0x69, 0, 0x0a])
const UTF16LE_NOBOM = bytes([0x68, 0, 0x69, 0])
const LATIN1 = bytes([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65, 0x0a]) // "café naïve\n" in ISO-8859-1
const UTF8 = bytes('café naïve — 😀\r\n')
const UTF8_BOM = bytes([0xef, 0xbb, 0xbf], 'a,b\r\n1,2\r\n')

describe('detectFileType on a corpus of real file kinds', () => {
  const cases: [string, Uint8Array, string | undefined, string, string][] = [
    ['pixel.png', PNG, 'image/png', 'image', 'image/png'],
    ['photo.jpg', JPEG, undefined, 'image', 'image/jpeg'],
    ['anim.gif', GIF, undefined, 'image', 'image/gif'],
    ['pic.webp', WEBP, undefined, 'image', 'image/webp'],
    ['doc.pdf', PDF, undefined, 'pdf', 'application/pdf'],
    ['book.epub', ZIP, undefined, 'binary', 'application/zip'],
    ['app.sqlite', SQLITE, undefined, 'binary', 'application/vnd.sqlite3'],
    ['le.txt', UTF16LE_BOM, 'text/plain', 'binary', 'application/octet-stream'],
    ['be.txt', UTF16BE_BOM, undefined, 'binary', 'application/octet-stream'],
    ['nobom.txt', UTF16LE_NOBOM, undefined, 'binary', 'application/octet-stream'],
    ['latin1.txt', LATIN1, 'text/plain', 'binary', 'application/octet-stream'],
    ['utf8.txt', UTF8, undefined, 'text', 'text/plain'],
    ['data.csv', UTF8_BOM, undefined, 'text', 'text/csv'],
    ['empty.txt', new Uint8Array(), undefined, 'text', 'text/plain'],
    ['empty', new Uint8Array(), undefined, 'text', 'text/plain'],
    ['readme.md', PNG, 'text/markdown', 'image', 'image/png'], // a .md that is really a PNG
    ['blob.bin', bytes('just words\n'), 'application/octet-stream', 'text', 'text/plain'], // a .bin that is text
  ]
  it.each(cases)('%s', (name, b, declared, kind, mime) => {
    expect(detectFileType(name, b, declared)).toEqual({ kind, mime })
  })

  it('gives known text types the right mime by extension', () => {
    const t = bytes('x')
    const expected: Record<string, string> = {
      'a.md': 'text/markdown',
      'a.json': 'application/json',
      'a.yaml': 'application/yaml',
      'a.yml': 'application/yaml',
      'a.xml': 'application/xml',
      'a.csv': 'text/csv',
      'a.log': 'text/plain',
      'a.ts': 'text/x-typescript',
      'a.py': 'text/x-python',
      'src/dir.d/Main.JAVA': 'text/x-java',
      Makefile: 'text/plain',
      'a.toml': 'application/toml',
    }
    for (const [name, mime] of Object.entries(expected)) expect(detectFileType(name, t).mime, name).toBe(mime)
  })

  it('keeps a declared textual mime for text, but never a declared image/pdf/text mime for other bytes', () => {
    expect(detectFileType('a.txt', bytes('{}'), 'application/json')).toEqual({ kind: 'text', mime: 'application/json' })
    expect(detectFileType('fake.png', bytes([0x00, 0x9f, 0x92]), 'image/png')).toEqual({ kind: 'binary', mime: 'application/octet-stream' })
    expect(detectFileType('fake.pdf', bytes([0x00, 0x9f]), 'application/pdf').kind).toBe('binary')
    expect(detectFileType('song', bytes([0x00, 0xfb]), 'audio/mpeg')).toEqual({ kind: 'binary', mime: 'audio/mpeg' })
    expect(detectFileType('x.gz', bytes([0x1f, 0x8b, 0x08, 0x00]))).toEqual({ kind: 'binary', mime: 'application/gzip' })
  })

  it('treats a NUL anywhere as binary, and any valid NUL-free UTF-8 as text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const b = enc.encode(s)
        const kind = detectFileType('x.dat', b).kind
        const looksLikeMagic = /^(%PDF-|GIF8[79]a|RIFF|PK|SQLite format 3)/.test(s)
        if (!looksLikeMagic) expect(kind).toBe(s.includes('\0') ? 'binary' : 'text')
      }),
    )
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), (b) => {
        // Random bytes are text only if they truly decode: the check agrees with a fatal decoder.
        let ok = !b.includes(0) && !(b[0] === 0xff && b[1] === 0xfe) && !(b[0] === 0xfe && b[1] === 0xff)
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(b)
        } catch {
          ok = false
        }
        expect(isUtf8Text(b)).toBe(ok)
      }),
    )
  })
})

describe('isTextualMime', () => {
  it('knows text-like mimes and not binary ones', () => {
    for (const m of [
      'text/plain',
      'text/markdown; charset=utf-8',
      'application/json',
      'application/ld+json',
      'application/yaml',
      'image/svg+xml',
      'application/xml',
      'application/x-sh',
    ]) {
      expect(isTextualMime(m), m).toBe(true)
    }
    for (const m of ['image/png', 'application/pdf', 'application/octet-stream', 'application/zip', '', undefined]) {
      expect(isTextualMime(m), String(m)).toBe(false)
    }
  })
})

describe('checkModelSupport', () => {
  const vision = { attachment: true, modalities: { input: ['text', 'image'] } }
  const full = { attachment: true, modalities: { input: ['text', 'image', 'pdf'] } }
  const textOnly = { attachment: false, modalities: { input: ['text'] } }

  it('accepts text for every model (it is inlined)', () => {
    expect(checkModelSupport('text', textOnly)).toBeNull()
    expect(checkModelSupport('text', {})).toBeNull()
  })
  it('flags an image for a model without image input, and a PDF for one without pdf input', () => {
    expect(checkModelSupport('image', vision)).toBeNull()
    expect(checkModelSupport('image', textOnly)?.reason).toMatch(/does not accept images/)
    expect(checkModelSupport('pdf', vision)?.reason).toMatch(/does not accept PDF/)
    expect(checkModelSupport('pdf', full)).toBeNull()
  })
  it('trusts modalities over the attachment flag, and the flag when there are no modalities', () => {
    expect(checkModelSupport('image', { attachment: true, modalities: { input: ['text'] } })).not.toBeNull()
    expect(checkModelSupport('image', { attachment: true })).toBeNull()
    expect(checkModelSupport('pdf', {})).not.toBeNull()
  })
  it('flags binaries for every model', () => {
    expect(checkModelSupport('binary', full)?.reason).toMatch(/Binary files/)
  })
})
