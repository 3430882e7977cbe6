/**
 * The inline format for text attachments: one text part per file, exact both ways.
 *
 *   <attached-file name="notes.md" mime="text/markdown" bytes="12" sha256="<64 hex>">
 *   # Title\r\n
 *   </attached-file sha256="<64 hex>">
 *
 * The start line carries the metadata; name and mime are JSON strings so no name can add a line or a
 * quote. The content is everything between the start line's "\n" and the "\n" before the end marker,
 * byte for byte (CRLF, BOM, blank lines, missing final newline all kept). The part must END with the end
 * marker, so a marker inside the content cannot close it early, and the byte length and SHA-256 must
 * match, so text a user typed that looks like an attachment is never taken for one. Parsing is pure,
 * rejects non-attachments after one `startsWith`, and is memoized per part id.
 * No Node built-ins: SHA-256 and base64 are small pure implementations (hashing must be synchronous).
 */
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
}

// ---- SHA-256 (FIPS 180-4), synchronous so that parsing and memoization stay synchronous ----

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
])

/** SHA-256 of the bytes as 64 lowercase hex digits. */
export function sha256Hex(data: Uint8Array): string {
  const bitLen = data.length * 8
  // Message + 0x80 + zero padding + 64-bit big-endian length, to a multiple of 64 bytes.
  const padded = new Uint8Array(((data.length + 72) >>> 6) << 6)
  padded.set(data)
  padded[data.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(bitLen / 0x100000000))
  view.setUint32(padded.length - 4, bitLen >>> 0)
  const h = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  const w = new Int32Array(64)
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getInt32(off + i * 4)
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!, b = w[i - 2]!
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3)
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10)
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0
    }
    let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, hh = h[7]!
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
      const t1 = (hh + S1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0
      hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0
    }
    h[0] = (h[0]! + a) | 0; h[1] = (h[1]! + b) | 0; h[2] = (h[2]! + c) | 0; h[3] = (h[3]! + d) | 0
    h[4] = (h[4]! + e) | 0; h[5] = (h[5]! + f) | 0; h[6] = (h[6]! + g) | 0; h[7] = (h[7]! + hh) | 0
  }
  let hex = ''
  for (let i = 0; i < 8; i++) hex += (h[i]! >>> 0).toString(16).padStart(8, '0')
  return hex
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
const HEADER = /^<attached-file name=("(?:[^"\\\n\r]|\\.)*") mime=("(?:[^"\\\n\r]|\\.)*") bytes="(0|[1-9]\d{0,15})" sha256="([0-9a-f]{64})">\n/

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
  const header = `${START}${JSON.stringify(file.name)} mime=${JSON.stringify(file.mime)} bytes="${file.bytes.length}" sha256="${sha}">\n`
  return header + text + endMarker(sha)
}

/** The attachment a text part holds, or null when the text is anything else (including lookalikes). */
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
  return { name, mime, bytes, text: content, sha256: sha, byteLength }
}

// Per-part memo, so streaming updates of a message never re-hash a 200 KB attachment. Keyed by part
// id; reused only when the text is the same (identity or equal value; length is checked first).
const MEMO_MAX = 500
const memo = new Map<string, { text: string; result: InlinedAttachment | null }>()

/** parseInlinedAttachment for a stored part, memoized by part id and text. */
export function parseTextPart(part: { id: string; text: string }): InlinedAttachment | null {
  const hit = memo.get(part.id)
  if (hit && hit.text.length === part.text.length && hit.text === part.text) return hit.result
  const result = parseInlinedAttachment(part.text)
  memo.delete(part.id)
  memo.set(part.id, { text: part.text, result })
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
