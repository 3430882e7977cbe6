/**
 * Terminal output → styled segments. Only SGR sequences (ESC [ … m: colours, bold, dim, italic,
 * underline) become styles; every other escape (cursor moves, OSC titles and links, erase) is
 * dropped. The result is plain data rendered as React text nodes, so command output can never
 * inject HTML; 256-colour and true-colour values are range-checked numbers.
 */

export interface AnsiStyle {
  fg?: string
  bg?: string
  bold?: boolean
  dim?: boolean
  italic?: boolean
  underline?: boolean
}

export interface AnsiSegment {
  text: string
  style: AnsiStyle
}

// CSI (ESC [ params final), OSC (ESC ] … BEL or ESC \), and two-character escapes.
// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b\[([0-9;?]*)([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g

/** The 16 basic colours are names (styled by CSS tokens, so they follow dark mode). */
const BASIC = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white']

function xterm256(n: number): string | undefined {
  if (!Number.isInteger(n) || n < 0 || n > 255) return undefined
  if (n < 8) return BASIC[n]
  if (n < 16) return `bright-${BASIC[n - 8]}`
  if (n >= 232) {
    const v = 8 + (n - 232) * 10
    return `rgb(${v},${v},${v})`
  }
  const i = n - 16
  const level = (x: number) => (x === 0 ? 0 : 55 + x * 40)
  return `rgb(${level(Math.floor(i / 36))},${level(Math.floor(i / 6) % 6)},${level(i % 6)})`
}

function rgb(r: number, g: number, b: number): string | undefined {
  const ok = (x: number) => Number.isInteger(x) && x >= 0 && x <= 255
  return ok(r) && ok(g) && ok(b) ? `rgb(${r},${g},${b})` : undefined
}

/** Applies one SGR parameter list to the current style (returns a new object). */
function applySgr(style: AnsiStyle, params: string): AnsiStyle {
  const codes = params === '' ? [0] : params.split(';').map((p) => (p === '' ? 0 : Number(p)))
  let s: AnsiStyle = { ...style }
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!
    if (c === 0) s = {}
    else if (c === 1) s.bold = true
    else if (c === 2) s.dim = true
    else if (c === 3) s.italic = true
    else if (c === 4) s.underline = true
    else if (c === 22) s.bold = s.dim = undefined
    else if (c === 23) s.italic = undefined
    else if (c === 24) s.underline = undefined
    else if (c >= 30 && c <= 37) s.fg = BASIC[c - 30]
    else if (c >= 90 && c <= 97) s.fg = `bright-${BASIC[c - 90]}`
    else if (c === 39) s.fg = undefined
    else if (c >= 40 && c <= 47) s.bg = BASIC[c - 40]
    else if (c >= 100 && c <= 107) s.bg = `bright-${BASIC[c - 100]}`
    else if (c === 49) s.bg = undefined
    else if (c === 38 || c === 48) {
      // Extended colour: 5;n (palette) or 2;r;g;b (true colour).
      const key = c === 38 ? 'fg' : 'bg'
      if (codes[i + 1] === 5) {
        s[key] = xterm256(codes[i + 2]!)
        i += 2
      } else if (codes[i + 1] === 2) {
        s[key] = rgb(codes[i + 2]!, codes[i + 3]!, codes[i + 4]!)
        i += 4
      }
    }
  }
  return s
}

/**
 * A carriage return without a newline rewrites the line (progress bars): only what was written
 * last is kept, as a terminal would show it.
 */
function collapseCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r').filter((p) => p.length > 0)
      return parts.length ? parts[parts.length - 1]! : ''
    })
    .join('\n')
}

export function parseAnsi(input: string): AnsiSegment[] {
  const text = collapseCarriageReturns(input)
  const out: AnsiSegment[] = []
  let style: AnsiStyle = {}
  let last = 0
  const push = (t: string) => {
    if (!t) return
    const prev = out[out.length - 1]
    if (prev && prev.style === style) prev.text += t
    else out.push({ text: t, style })
  }
  for (const m of text.matchAll(ESCAPE)) {
    push(text.slice(last, m.index))
    last = m.index! + m[0].length
    if (m[2] === 'm') style = applySgr(style, m[1] ?? '')
  }
  push(text.slice(last))
  return out
}

/** The text without any escape sequence (for summaries, copying, searching). */
export function stripAnsi(input: string): string {
  return parseAnsi(input)
    .map((s) => s.text)
    .join('')
}
