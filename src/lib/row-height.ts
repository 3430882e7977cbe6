/**
 * How tall a message row will be before it is rendered, from its content — so the scrollbar tells
 * the truth about a long session (a flat guess made the transcript grow by half on the way up and
 * every thumb drag land elsewhere) — and the heights already measured, kept per message id across
 * renders and session switches so a row is only ever estimated once.
 *
 * The figures follow the CSS: 14 px text (--text-base) at line-height 1.5 (21 px), 13 px code
 * (--text-md) at 1.55 (~20.2 px), a user bubble padded 10 px by 16 px, a message column of at most
 * 780 px, ~7.3 px per character of proportional text.
 */
import type { MessageWithParts } from '../api/types'

const TEXT_LINE = 21
const CODE_LINE = 20.2
const CHAR_PX = 7.3
const ROW_CHROME = 34 // padding, the role line, the actions row
const USER_BUBBLE = 20 // the bubble's own padding
const PARAGRAPH_GAP = 10
const CODE_CHROME = 40 // the code block's header and padding
const TOOL_CARD = 38 // a tool call, collapsed to its one-line summary
const ATTACHMENT = 40
const COLUMN_MAX = 780

/** Estimated pixel height of one message row in a timeline `width` px wide. */
export function estimateRowHeight(m: MessageWithParts, width: number): number {
  const column = Math.max(200, Math.min(COLUMN_MAX, width - 48) - (m.info.role === 'user' ? 32 : 0))
  const perLine = Math.max(20, Math.floor(column / CHAR_PX))
  let h = ROW_CHROME + (m.info.role === 'user' ? USER_BUBBLE : 0)
  for (const p of m.parts) {
    if (p.type === 'text' && !p.synthetic && !p.ignored) h += textHeight(p.text, perLine)
    else if (p.type === 'tool') h += TOOL_CARD
    else if (p.type === 'file') h += ATTACHMENT
    else if (p.type === 'reasoning') h += TOOL_CARD
  }
  return Math.round(h)
}

/** Markdown-ish text: paragraphs wrap at `perLine` characters; fenced code keeps its lines. */
function textHeight(text: string, perLine: number): number {
  let h = 0
  let inCode = false
  let codeLines = 0
  let paragraph = false
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) {
      if (inCode) {
        h += CODE_CHROME + codeLines * CODE_LINE + PARAGRAPH_GAP
        codeLines = 0
      }
      inCode = !inCode
      paragraph = false
      continue
    }
    if (inCode) {
      codeLines++
      continue
    }
    if (line.trim() === '') {
      if (paragraph) h += PARAGRAPH_GAP
      paragraph = false
      continue
    }
    paragraph = true
    h += Math.max(1, Math.ceil(line.length / perLine)) * TEXT_LINE
  }
  if (inCode) h += CODE_CHROME + codeLines * CODE_LINE // a fence still open while streaming
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
