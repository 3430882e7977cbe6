/** One part of a message. Bookkeeping parts (steps, snapshots) are not shown. */
import { memo, useState } from 'react'
import type { Part } from '../../api/types'
import { shownAttachment, AttachmentChip } from '../attachments'
import { Markdown } from '../../ui/markdown/Markdown'
import { ToolCard } from './tools/ToolCard'

function Reasoning({ text, streaming }: { text: string; streaming: boolean }) {
  const [open, setOpen] = useState(false)
  if (!text.trim()) return null
  // While it streams the reasoning is shown live; once done it folds to one line.
  const expanded = open || streaming
  return (
    <div className="reasoning" data-testid="reasoning" data-open={expanded}>
      <button type="button" className="reasoning-head" aria-expanded={expanded} onClick={() => setOpen((o) => !o)}>
        {streaming ? 'Thinking…' : 'Thought'}
      </button>
      {expanded && <div className="reasoning-text">{text}</div>}
    </div>
  )
}

export const PartView = memo(function PartView({ part, role }: { part: Part; role: 'user' | 'assistant' }) {
  switch (part.type) {
    case 'text':
      if (part.synthetic || part.ignored) return null
      if (role === 'user') {
        // An inlined text file is a chip, never a wall of text (parsing is memoized per part).
        const attachment = shownAttachment(part)
        if (attachment) return <AttachmentChip attachment={attachment} />
      }
      if (role === 'user')
        return (
          <div className="user-text" data-testid="part-text">
            {part.text}
          </div>
        )
      return part.text ? (
        <div data-testid="part-text">
          <Markdown text={part.text} />
        </div>
      ) : null
    case 'reasoning':
      return <Reasoning text={part.text} streaming={part.time?.end === undefined} />
    case 'tool':
      return <ToolCard part={part} />
    case 'file': {
      // File parts (from other clients, images, PDFs) are attachments too; images also show inline.
      const attachment = shownAttachment(part)
      return attachment ? (
        <AttachmentChip attachment={attachment} />
      ) : (
        <div className="file-chip" data-testid="file-part" title={part.mime}>
          📎 {part.filename ?? part.mime}
        </div>
      )
    }
    case 'patch':
      return part.files.length ? (
        <div className="patch-note" title={part.files.join('\n')}>
          {part.files.length === 1 ? '1 file changed' : `${part.files.length} files changed`}
        </div>
      ) : null
    case 'agent':
      return <div className="file-chip">@{part.name}</div>
    case 'subtask':
      return <div className="file-chip">Subtask · {part.description}</div>
    case 'retry':
      return (
        <div className="patch-note">
          Retried (attempt {part.attempt}): {part.error.data.message}
        </div>
      )
    default:
      return null
  }
})
