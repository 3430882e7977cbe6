// How a path is shown to the user. The checkpoint engine carries bytes of a file name that are not
// UTF-8 as lone surrogates U+DC80–U+DCFF (see electron/checkpoints/os-names.ts); on screen each
// such byte reads \xNN instead of an unprintable replacement character.
const ESCAPED = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g

export function displayPath(p: string): string {
  return p.replace(ESCAPED, (ch) => `\\x${(ch.charCodeAt(0) - 0xdc00).toString(16).padStart(2, '0')}`)
}
