// File names that are not UTF-8. Linux allows any bytes in a name; Node's string paths are UTF-8,
// so such a name read as a string turns into U+FFFD and can be neither opened nor recreated. Keys
// carry these names with Python's "surrogateescape": each byte that is not part of valid UTF-8
// becomes the lone surrogate U+DC80–U+DCFF. Decoding valid UTF-8 never yields a lone surrogate,
// so the form is unambiguous; it survives JSON (escaped as \udcXX) and structured clone. Paths
// stay strings everywhere in the engine and become bytes only at the file-system call (`os`).
import fs from 'node:fs'

/** A lone low surrogate in the escape range (not the second half of a pair). */
const ESCAPED = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/

export function hasRawBytes(s: string): boolean {
  return ESCAPED.test(s)
}

/** The path to hand to `fs`: the string itself, or its bytes when it carries escaped ones. */
export function os(p: string): string | Buffer {
  return hasRawBytes(p) ? toBytes(p) : p
}

export function toBytes(s: string): Buffer {
  const parts: Buffer[] = []
  let start = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    const prev = i > 0 ? s.charCodeAt(i - 1) : 0
    if (c >= 0xdc80 && c <= 0xdcff && !(prev >= 0xd800 && prev <= 0xdbff)) {
      parts.push(Buffer.from(s.slice(start, i), 'utf8'), Buffer.of(c - 0xdc00))
      start = i + 1
    }
  }
  parts.push(Buffer.from(s.slice(start), 'utf8'))
  return Buffer.concat(parts)
}

/** A name (or path) as bytes → its key form: UTF-8 where valid, escaped bytes elsewhere. */
export function fromBytes(b: Buffer): string {
  const plain = b.toString('utf8')
  if (!plain.includes('\uFFFD') || Buffer.from(plain, 'utf8').equals(b)) return plain
  let out = ''
  let i = 0
  while (i < b.length) {
    const c = b[i]!
    const n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0
    if (n > 0 && i + n <= b.length) {
      const chunk = b.subarray(i, i + n)
      const s = chunk.toString('utf8')
      if (Buffer.from(s, 'utf8').equals(chunk)) {
        out += s
        i += n
        continue
      }
    }
    out += String.fromCharCode(0xdc00 + c)
    i++
  }
  return out
}

/**
 * A folder's entries with names in key form. Names are read as strings (fast) and read again as
 * bytes only when one of them came back with U+FFFD, the mark of a name that is not UTF-8.
 */
export function readdirTyped(dir: string): { name: string; isDirectory: boolean }[] {
  const entries = fs.readdirSync(os(dir), { withFileTypes: true })
  if (!entries.some((d) => d.name.includes('\uFFFD'))) return entries.map((d) => ({ name: d.name, isDirectory: d.isDirectory() }))
  return fs.readdirSync(os(dir), { withFileTypes: true, encoding: 'buffer' }).map((d) => ({ name: fromBytes(d.name as unknown as Buffer), isDirectory: d.isDirectory() }))
}

export function readdirNames(dir: string): string[] {
  return readdirTyped(dir).map((d) => d.name)
}

/**
 * realpath of a path that may carry escaped bytes, in key form. Bytes go to the kernel's realpath:
 * Node's own (JavaScript) realpathSync decodes a Buffer path as UTF-8 and then fails with ENOENT.
 */
export function realpathOf(p: string): string {
  return hasRawBytes(p) ? fromBytes(fs.realpathSync.native(toBytes(p), { encoding: 'buffer' })) : fs.realpathSync(p)
}

/** A symlink's text in key form (a link may point at a name that is not UTF-8 either). */
export function readLink(p: string): string {
  return fromBytes(fs.readlinkSync(os(p), { encoding: 'buffer' }))
}
