/**
 * One test per loss of the seed client's inline format (retry-lessons bug 6), each proving Retake's
 * format does not have it. The seed wrote `Attached file: NAME\nMIME: TYPE\n<content>` with no end
 * delimiter and parsed it back by regex.
 */
import type { Part } from '@opencode-ai/sdk/v2'
import { describe, expect, it } from 'vitest'
import { detectFileType } from '../../../shared/attachments/file-type'
import { bytesToDataUrl, canInline, formatInlinedAttachment, parseInlinedAttachment, INLINE_LIMIT_BYTES } from '../../../shared/attachments/inlined-attachment'
import { buildRetryPayload, inlineTextFileParts } from '../../../shared/retake/retry-payload'

const enc = new TextEncoder()
const fmt = (name: string, body: string | Uint8Array, mime = 'text/plain') => formatInlinedAttachment({ name, mime, bytes: typeof body === 'string' ? enc.encode(body) : body })
const textOf = (p: unknown) => (p as { text: string }).text

describe('seed inline-format losses that Retake does not have', () => {
  it('has an end delimiter: the attachment is only recognized when its end marker closes the part', () => {
    const out = fmt('a.txt', 'body\n')
    expect(out.endsWith(`\n</attached-file sha256="${parseInlinedAttachment(out)!.sha256}">`)).toBe(true)
    const withoutEnd = out.slice(0, out.lastIndexOf('\n</attached-file'))
    expect(parseInlinedAttachment(withoutEnd)).toBeNull()
  })

  it('keeps CRLF line endings and leading blank lines', () => {
    const body = '\r\n\r\n  indented first line\r\nsecond\r\n\r\n'
    const back = parseInlinedAttachment(fmt('win.txt', body))
    expect(back!.text).toBe(body)
    expect(back!.text.startsWith('\r\n\r\n')).toBe(true)
  })

  it("is not split in two by a file whose content contains a header line (seed's or Retake's own)", () => {
    const inner = fmt('inner.txt', 'inner\n')
    const body = `top\nAttached file: evil.txt\nMIME: text/plain\nmiddle\n${inner}\nbottom\n</attached-file sha256="${'f'.repeat(64)}">\n`
    const back = parseInlinedAttachment(fmt('outer.txt', body))
    expect(back!.name).toBe('outer.txt')
    expect(back!.text).toBe(body)
  })

  it('never absorbs text typed after an attachment', () => {
    const att = fmt('a.txt', 'file body')
    // Typed text is its own part, so it is sent and shown as typed text.
    const parts: Part[] = [
      { id: 'prt_1', sessionID: 'ses_1', messageID: 'msg_1', type: 'text', text: att },
      { id: 'prt_2', sessionID: 'ses_1', messageID: 'msg_1', type: 'text', text: 'and my question' },
    ]
    const r = buildRetryPayload({ message: {}, parts }, { model: { providerID: 'p', modelID: 'm' } })
    if ('error' in r) throw new Error(r.error)
    expect(parseInlinedAttachment(textOf(r.parts[0]))!.text).toBe('file body')
    expect(r.parts[1]).toEqual({ type: 'text', text: 'and my question' })
    // Even glued into the same part, trailing text is not swallowed into an attachment chip.
    expect(parseInlinedAttachment(att + '\nand my question')).toBeNull()
  })

  it('inlines files over 200k characters whole instead of sending them as file parts', () => {
    const body = '| col |\r\n'.repeat(40_000) // 360k characters
    const out = inlineTextFileParts([{ type: 'file', mime: 'text/markdown', filename: 'big.md', url: bytesToDataUrl(enc.encode(body), 'text/markdown') }])
    expect(out[0]!.type).toBe('text')
    expect(parseInlinedAttachment(textOf(out[0]))!.text).toBe(body)
    // And above the limit the user is told, rather than a doomed file part being sent.
    expect(canInline({ name: 'huge.md', bytes: new Uint8Array(INLINE_LIMIT_BYTES + 1).fill(0x61) }).ok).toBe(false)
  })

  it('does not label unknown binaries text/plain nor inline them as mojibake', () => {
    const blob = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0xe9, 0xff])
    expect(detectFileType('notes.txt', blob)).toEqual({ kind: 'binary', mime: 'application/octet-stream' })
    expect(() => fmt('notes.txt', blob)).toThrow(/not valid UTF-8/)
    const out = inlineTextFileParts([{ type: 'file', mime: 'text/plain', filename: 'notes.txt', url: bytesToDataUrl(blob, 'text/plain') }])
    expect(out[0]).toMatchObject({ type: 'file', mime: 'application/octet-stream', filename: 'notes.txt' })
    // Latin-1 text is not UTF-8 either: kept as bytes, not decoded into U+FFFD.
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9])
    expect(inlineTextFileParts([{ type: 'file', mime: 'text/plain', url: bytesToDataUrl(latin1, 'text/plain') }])[0]!.type).toBe('file')
  })
})
