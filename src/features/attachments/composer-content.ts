/**
 * A prompt's parts turned back into what the composer holds: the typed text, and the attachments as
 * files (inlined text attachments and data: file parts decoded to their exact bytes). Used by "Edit"
 * on a retake that did not go through. Agent parts and file:// parts have no composer form and are
 * left out (the saved payload itself is kept until the user discards it).
 */
import type { PartInput } from '../../../shared/ipc-contract'
import { parseDataUrl, parseInlinedAttachment } from '../../../shared/attachments/inlined-attachment'

export interface ComposerContent {
  text: string
  files: { name: string; bytes: Uint8Array; type: string }[]
}

export function composerContentOf(parts: readonly PartInput[]): ComposerContent {
  const texts: string[] = []
  const files: ComposerContent['files'] = []
  for (const p of parts) {
    if (p.type === 'text') {
      // Only Retake's own blocks become files again; a typed lookalike stays typed text.
      const inlined = parseInlinedAttachment(p.text)
      if (inlined?.fromRetake) files.push({ name: inlined.name, bytes: inlined.bytes, type: inlined.mime })
      else texts.push(p.text)
    } else if (p.type === 'file') {
      const decoded = parseDataUrl(p.url)
      if (decoded) files.push({ name: p.filename ?? 'attachment', bytes: decoded.bytes, type: p.mime })
    }
  }
  return { text: texts.join('\n\n'), files }
}
