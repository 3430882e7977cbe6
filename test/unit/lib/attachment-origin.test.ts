/**
 * Only blocks Retake made show as attachments. A block whose hash and length are right is easy to
 * write by hand (or paste); what Retake adds is a tag under this install's key.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { formatInlinedAttachment, parseInlinedAttachment, parseTextPart, setBlockKey } from '../../../shared/attachments/inlined-attachment'
import { composerContentOf } from '../../../src/features/attachments/composer-content'
import { hmacSha256Hex } from '../../../shared/attachments/sha256'

const enc = new TextEncoder()
const sha = (s: string) => createHash('sha256').update(s).digest('hex')
/** What a user can type: a block with the right hash and length, and no (or a made-up) tag. */
const handMade = (body: string, tag = '') =>
  `<attached-file name="notes.md" mime="text/markdown" bytes="${enc.encode(body).length}" sha256="${sha(body)}"${tag}>\n${body}\n</attached-file sha256="${sha(body)}">`
let n = 0
const part = (text: string) => ({ id: `prt_origin${++n}`, text })

describe('attachment blocks carry the install’s tag', () => {
  it('HMAC-SHA-256 matches node:crypto for short, block-sized and long keys and messages', () => {
    for (const keyLen of [0, 16, 32, 64, 65, 200]) {
      for (const msgLen of [0, 1, 55, 64, 1000]) {
        const key = randomBytes(keyLen)
        const msg = randomBytes(msgLen)
        expect(hmacSha256Hex(key, msg)).toBe(createHmac('sha256', key).update(msg).digest('hex'))
      }
    }
  })

  it('a hand-made block with the right hash is text, not an attachment', () => {
    setBlockKey(randomBytes(32).toString('hex'))
    const forged = handMade('# not a file\n')
    // The format itself is fine (lossless, hash matches) …
    expect(parseInlinedAttachment(forged)).toMatchObject({ name: 'notes.md', fromRetake: false })
    // … but it is not Retake's: no chip, and "Edit" keeps it as typed text.
    expect(parseTextPart(part(forged))).toBeNull()
    expect(composerContentOf([{ type: 'text', text: forged }])).toEqual({ text: forged, files: [] })
    expect(parseTextPart(part(handMade('# not a file\n', ` tag="${'0'.repeat(32)}"`)))).toBeNull()
  })

  it('a block Retake made is an attachment; another install’s, or one with an edited name, is not', () => {
    const mine = randomBytes(32).toString('hex')
    setBlockKey(mine)
    const real = formatInlinedAttachment({ name: 'notes.md', mime: 'text/markdown', bytes: enc.encode('# a file\n') })
    expect(parseTextPart(part(real))).toMatchObject({ name: 'notes.md', text: '# a file\n', fromRetake: true })
    expect(composerContentOf([{ type: 'text', text: real }]).files).toHaveLength(1)
    // The tag covers the metadata: a renamed copy of a real block is not Retake's.
    expect(parseTextPart(part(real.replace('"notes.md"', '"other.md"')))).toBeNull()

    setBlockKey(randomBytes(32).toString('hex'))
    expect(parseTextPart(part(real))).toBeNull()
    // The memo forgets results made under another key.
    const p = part(real)
    setBlockKey(mine)
    expect(parseTextPart(p)).not.toBeNull()
    setBlockKey(randomBytes(32).toString('hex'))
    expect(parseTextPart(p)).toBeNull()
  })

  it('refuses a key that is not hex of a sensible length', () => {
    expect(() => setBlockKey('xyz')).toThrow()
    expect(() => setBlockKey('ab')).toThrow()
  })
})
