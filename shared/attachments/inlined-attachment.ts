/**
 * The inline format for text attachments: one text part per file, exact both ways.
 *
 *   <attached-file name="notes.md" mime="text/markdown" bytes="12" sha256="<64 hex>" tag="<32 hex>">
 *   # Title\r\n
 *   </attached-file sha256="<64 hex>">
 *
 * The start line carries the metadata; name and mime are JSON strings so no name can add a line or a
 * quote. The content is everything between the start line's "\n" and the "\n" before the end marker,
 * byte for byte (CRLF, BOM, blank lines, missing final newline all kept). The part must END with the end
 * marker, so a marker inside the content cannot close it early, and the byte length and SHA-256 must
 * match. Parsing is pure, rejects non-attachments after one `startsWith`, and is memoized per part id.
 *
 * Only Retake's own blocks show as attachments. Anyone can write a block whose hash matches (a user
 * pasting one, say), so the start line also carries `tag`: an HMAC of its metadata under a random key
 * the host creates once per install (its data dir) and hands to the renderer in `app.info`. Text that
 * looks like a block but has no valid tag — typed, pasted, from another install, or written before
 * tags existed — stays text (it is still sent, and sent again by a retake, verbatim: nothing is lost, only the chip).
 */
import { blockKey, blockKeyVersion, setBlockKey } from './block-key'
import { hmacSha256Hex, sha256Hex } from './sha256'
import { detectFileType } from './file-type'

/** Text files up to this size are inlined whole; larger ones are refused before sending. */
export const INLINE_LIMIT_BYTES = 1024 * 1024

/** A text attachment recovered from a text part. */
export interface InlinedAttachment {
  name: string
  mime: string
  /** The file's exact bytes (the UTF-8 encoding of `text`). */
  bytes: Uint8Array
  text: string
  sha256: string
  byteLength: number
  /** True when the tag proves Retake made the block with this install's key. */
  fromRetake: boolean
}

export { sha256Hex }

// ---- the install's key for block tags (block-key.ts) ----

export { setBlockKey }

/** The tag covers every field of the start line, so no part of a tagged block can be swapped. */
function tagOf(nameJson: string, mimeJson: string, byteLength: number, sha: string): string {
  const message = new TextEncoder().encode(`retake-attachment\n${nameJson}\n${mimeJson}\n${byteLength}\n${sha}`)
  return hmacSha256Hex(blockKey(), message).slice(0, 32)
}

// ---- base64 data URLs, in chunks so a 5 MB file never hits the argument-count or stack limits ----

const CHUNK = 0x6000 // bytes per btoa call; a multiple of 3 so the chunks' base64 concatenates cleanly

/** Encode bytes as a base64 `data:` URL. */
export function bytesToDataUrl(bytes: Uint8Array, mime: string): string {
  const pieces: string[] = []
  for (let i = 0; i < bytes.length; i += CHUNK) {
    pieces.push(btoa(String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + CHUNK)))))
  }
  return `data:${mime};base64,${pieces.join('')}`
}

/** Decode a `data:` URL (base64 or percent-encoded) to its bytes and mime; null when malformed. */
export function parseDataUrl(url: string): { mime: string; bytes: Uint8Array } | null {
  const m = /^data:([^,]*),/i.exec(url)
  if (!m) return null
  const params = m[1]!.split(';')
  const isBase64 = params.length > 1 && params[params.length - 1]!.toLowerCase() === 'base64'
  const mime = (isBase64 ? params.slice(0, -1) : params).join(';').trim() || 'text/plain;charset=US-ASCII'
  const body = url.slice(m[0].length)
  if (!isBase64) {
    // Percent-decoding byte by byte: decodeURIComponent would throw on (legal) non-UTF-8 escapes.
    const raw = new TextEncoder().encode(body)
    const out = new Uint8Array(raw.length)
    let n = 0
    for (let i = 0; i < raw.length; i++) {
      if (raw[i] === 0x25 && i + 2 < raw.length && isHex(raw[i + 1]!) && isHex(raw[i + 2]!)) {
        out[n++] = parseInt(String.fromCharCode(raw[i + 1]!, raw[i + 2]!), 16)
        i += 2
      } else out[n++] = raw[i]!
    }
    return { mime, bytes: out.slice(0, n) }
  }
  const b64 = body.replace(/[\s]+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) return null
  const bytes = new Uint8Array(Math.floor((b64.replace(/=+$/, '').length * 3) / 4))
  let n = 0
  const step = (CHUNK / 3) * 4 // base64 chars per atob call, a multiple of 4
  for (let i = 0; i < b64.length; i += step) {
    let bin: string
    try {
      bin = atob(b64.slice(i, i + step))
    } catch {
      return null
    }
    for (let j = 0; j < bin.length; j++) bytes[n++] = bin.charCodeAt(j)
  }
  return { mime, bytes: n === bytes.length ? bytes : bytes.slice(0, n) }
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
}

/** Decode a `data:` URL to its bytes; null when it is not a well-formed data URL. */
export function dataUrlToBytes(url: string): Uint8Array | null {
  return parseDataUrl(url)?.bytes ?? null
}

// ---- the format ----

const START = '<attached-file name='
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const HEADER = /^<attached-file name=("(?:[^"\\\n\r]|\\.)*") mime=("(?:[^"\\\n\r]|\\.)*") bytes="(0|[1-9]\d{0,15})" sha256="([0-9a-f]{64})"(?: tag="([0-9a-f]{32})")?>\n/

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const endMarker = (sha: string): string => `\n</attached-file sha256="${sha}">`

/** The text part's text for one attachment; throws when the bytes are not valid UTF-8. */
export function formatInlinedAttachment(file: { name: string; mime: string; bytes: Uint8Array }): string {
  let text: string
  try {
    text = utf8.decode(file.bytes)
  } catch {
    throw new Error(`"${file.name}" is not valid UTF-8 text and cannot be inlined`)
  }
  const sha = sha256Hex(file.bytes)
  const [name, mime] = [JSON.stringify(file.name), JSON.stringify(file.mime)]
  const tag = tagOf(name, mime, file.bytes.length, sha)
  const header = `${START}${name} mime=${mime} bytes="${file.bytes.length}" sha256="${sha}" tag="${tag}">\n`
  return header + text + endMarker(sha)
}

/**
 * The block a text holds, or null when the text is anything else (including lookalikes whose hash or
 * length do not match). `fromRetake` says whether its tag is valid; only such blocks are attachments.
 */
export function parseInlinedAttachment(text: string): InlinedAttachment | null {
  if (!text.startsWith(START)) return null
  const m = HEADER.exec(text)
  if (!m) return null
  const sha = m[4]!
  const end = endMarker(sha)
  // The end marker must close the part: cheap to check, and it rejects partial (streaming) text early.
  if (!text.endsWith(end) || text.length < m[0].length + end.length) return null
  let name: unknown, mime: unknown
  try {
    name = JSON.parse(m[1]!)
    mime = JSON.parse(m[2]!)
  } catch {
    return null
  }
  if (typeof name !== 'string' || typeof mime !== 'string') return null
  const content = text.slice(m[0].length, text.length - end.length)
  if (LONE_SURROGATE.test(content)) return null // a lone surrogate cannot come from UTF-8 bytes
  const bytes = new TextEncoder().encode(content)
  const byteLength = Number(m[3])
  if (bytes.length !== byteLength || sha256Hex(bytes) !== sha) return null
  const fromRetake = m[5] !== undefined && m[5] === tagOf(m[1]!, m[2]!, byteLength, sha)
  return { name, mime, bytes, text: content, sha256: sha, byteLength, fromRetake }
}

// Per-part memo, so streaming updates of a message never re-hash a 200 KB attachment. Keyed by part
// id; reused only when the text is the same (identity or equal value; length is checked first).
const MEMO_MAX = 500
const memo = new Map<string, { text: string; result: InlinedAttachment | null; key: number }>()

/** The attachment Retake made that a stored part holds (see fromRetake), memoized by part id and text. */
export function parseTextPart(part: { id: string; text: string }): InlinedAttachment | null {
  const hit = memo.get(part.id)
  if (hit && hit.key === blockKeyVersion() && hit.text.length === part.text.length && hit.text === part.text) return hit.result
  const parsed = parseInlinedAttachment(part.text)
  const result = parsed?.fromRetake ? parsed : null
  memo.delete(part.id)
  memo.set(part.id, { text: part.text, result, key: blockKeyVersion() })
  if (memo.size > MEMO_MAX) memo.delete(memo.keys().next().value!)
  return result
}

/** Whether a file can be inlined as text, or the reason to tell the user before sending. */
export function canInline(file: { name: string; bytes: Uint8Array; mime?: string }): { ok: true } | { ok: false; reason: string } {
  const type = detectFileType(file.name, file.bytes, file.mime)
  if (type.kind !== 'text') return { ok: false, reason: `"${file.name}" is not UTF-8 text (${type.mime}).` }
  if (file.bytes.length > INLINE_LIMIT_BYTES) {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`
    return { ok: false, reason: `"${file.name}" is ${mb(file.bytes.length)}; text attachments are limited to ${mb(INLINE_LIMIT_BYTES)}.` }
  }
  return { ok: true }
}
