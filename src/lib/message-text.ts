/** Plain text of a message for the copy button: its visible text parts, in order. */
import type { MessageWithParts } from '../api/types'

export function messageText(m: MessageWithParts): string {
  return m.parts
    .filter((p) => p.type === 'text' && !p.synthetic && !p.ignored)
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n\n')
    .trim()
}
