/** Plain text of a message for the copy button: its visible text parts, in order. */
import type { MessageWithParts } from './types'
import { parseTextPart } from '../../shared/attachments/inlined-attachment'

export function messageText(m: MessageWithParts): string {
  return m.parts
    .filter((p) => p.type === 'text' && !p.synthetic && !p.ignored)
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n\n')
    .trim()
}

/** The text the user typed: not Retake's attachment blocks, not synthetic parts (what Edit starts from). */
export function typedText(m: MessageWithParts): string {
  return m.parts.flatMap((p) => (p.type === 'text' && !p.synthetic && !p.ignored && !parseTextPart(p) ? [p.text] : [])).join('\n\n')
}
