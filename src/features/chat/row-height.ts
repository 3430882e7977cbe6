/**
 * How tall a message row will be before it is rendered, from its content — so the scrollbar tells
 * the truth about a long session (a flat guess made the transcript grow by half on the way up and
 * every thumb drag land elsewhere) — and the heights already measured, kept per message id across
 * renders and session switches so a row is only ever estimated once.
 *
 * The figures follow the CSS (checked against rows measured in Chromium by `npm run bench:ui`,
 * which reports the error): 14 px text at line-height 1.5 (21 px; a line with inline code is 22,
 * its border), code at 19.375 px a line as Chromium lays it out (bench:ui measured it again after the
 * design tokens: unchanged), a message column of at most 780 px, ~7.3 px per
 * character of proportional text. A user's text is shown as typed (pre-wrap), an answer as markdown.
 */
import type { MessageWithParts } from '../../api/types'

const TEXT_LINE = 21
const CODE_TEXT_LINE = 22 // a line with inline `code`: its 1 px border top and bottom
const CODE_LINE = 19.375
const CHAR_PX = 7.3
// The row's padding (8 + 2), the role line (18 + 4) and the actions row (4 + 26).
const ROW_CHROME = 62
const USER_BUBBLE = 20 // the bubble's own padding
const BLOCK_GAP = 10 // markdown blocks' margin (collapsing, none after the last)
const PART_GAP = 8 // between the parts of one message
// The code block's header (28), its padding (20), its border (2) and the line box's slack (6).
const CODE_CHROME = 56
const HEADING = 26
const HEADING_GAP = 16
const TOOL_CARD = 38 // a tool call, collapsed to its one-line summary
const ATTACHMENT = 40
const COLUMN_MAX = 780

/**
 * Estimates by message object: a merged older page recomputes the layout of every row, and the
 * cache's messages keep their identity while unchanged (a streamed message is a new object).
 */
const estimates = new WeakMap<MessageWithParts, { width: number; height: number }>()

/** Estimated pixel height of one message row in a timeline `width` px wide. */
export function estimateRowHeight(m: MessageWithParts, width: number): number {
  const known = estimates.get(m)
  if (known && known.width === width) return known.height
  const height = estimateFresh(m, width)
  estimates.set(m, { width, height })
  return height
}

function estimateFresh(m: MessageWithParts, width: number): number {
  const user = m.info.role === 'user'
  const column = Math.max(200, Math.min(COLUMN_MAX, width - 48) - (user ? 28 : 0))
  const perLine = Math.max(20, Math.floor(column / CHAR_PX))
  const parts: number[] = []
  for (const p of m.parts) {
    if (p.type === 'text' && !p.synthetic && !p.ignored) parts.push(user ? plainHeight(p.text, perLine) : markdownHeight(p.text, perLine))
    else if (p.type === 'tool' || p.type === 'reasoning') parts.push(TOOL_CARD)
    else if (p.type === 'file') parts.push(ATTACHMENT)
  }
  const body = parts.reduce((a, b) => a + b, 0) + PART_GAP * Math.max(0, parts.length - 1)
  return Math.round(ROW_CHROME + (user ? USER_BUBBLE : 0) + body)
}

const wrapped = (line: string, perLine: number) => Math.max(1, Math.ceil(line.length / perLine))

/** Text shown as typed: every line, blank ones too, wraps at `perLine` characters. */
function plainHeight(text: string, perLine: number): number {
  return text.split('\n').reduce((h, line) => h + wrapped(line, perLine) * TEXT_LINE, 0)
}

/**
 * Markdown, block by block: paragraphs and lists wrap at `perLine` characters, fenced code keeps
 * its lines, headings are one taller line; blocks are BLOCK_GAP apart (HEADING_GAP above a heading).
 */
function markdownHeight(text: string, perLine: number): number {
  let h = 0
  let started = false
  let kind: 'p' | 'list' | null = null
  let open = 0
  let inCode = false
  let codeLines = 0
  const block = (height: number, gap = BLOCK_GAP) => {
    if (started) h += gap
    h += height
    started = true
  }
  const close = () => {
    if (kind) block(open)
    kind = null
    open = 0
  }
  for (const line of text.split('\n')) {
    const trimmed = line.trimStart()
    if (trimmed.startsWith('```')) {
      if (inCode) block(CODE_CHROME + codeLines * CODE_LINE)
      else close()
      inCode = !inCode
      codeLines = 0
      continue
    }
    if (inCode) {
      codeLines++
      continue
    }
    if (trimmed === '') {
      close()
      continue
    }
    if (/^#{1,6}\s/.test(trimmed)) {
      close()
      block(HEADING, HEADING_GAP)
      continue
    }
    const item: 'p' | 'list' = /^([-*+]|\d+[.)])\s/.test(trimmed) ? 'list' : 'p'
    // A list right under a paragraph (or the other way round) is a new block, with its gap.
    if (kind && kind !== item && item === 'list') close()
    kind = kind ?? item
    open += wrapped(line, perLine) * (line.includes('`') ? CODE_TEXT_LINE : TEXT_LINE)
  }
  close()
  if (inCode) block(CODE_CHROME + codeLines * CODE_LINE) // a fence still open while streaming
  return h
}

/** Heights measured in the browser, by message id (bounded: the oldest are forgotten first). */
const measured = new Map<string, number>()
const MAX_MEASURED = 20_000

export function measuredHeight(id: string): number | undefined {
  return measured.get(id)
}

export function rememberHeight(id: string, height: number): void {
  if (height <= 0) return
  measured.delete(id)
  measured.set(id, height)
  if (measured.size > MAX_MEASURED) measured.delete(measured.keys().next().value!)
}
