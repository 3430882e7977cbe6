/** One message of the timeline: its parts, its error (once), and its actions. */
import { memo } from 'react'
import type { MessageWithParts } from '../../api/types'
import { messageError } from '../../api/message-errors'
import { messageText } from '../../api/message-text'
import { isInlinedAttachmentPart } from '../attachments'
import { ErrorBlock } from './ErrorBlock'
import { MessageActions } from '../../ui/MessageActions'
import { MessageFolderProvider, messageFolder, PartView } from '../messages'

/** True while an assistant message is still being written. */
export function isStreaming(m: MessageWithParts): boolean {
  return m.info.role === 'assistant' && m.info.time.completed === undefined && !m.info.error
}

/** Whether any part renders something (empty text/reasoning parts are left over from retakes). */
function hasContent(parts: MessageWithParts['parts']): boolean {
  return parts.some((p) => (p.type === 'text' || p.type === 'reasoning' ? p.text.trim().length > 0 : true))
}

export const MessageRow = memo(function MessageRow({
  message,
  continued,
}: {
  message: MessageWithParts
  /** A later step of the same assistant turn: no header, tighter spacing. */
  continued: boolean
}) {
  const { info } = message
  const role = info.role
  const streaming = isStreaming(message)
  const error = messageError(message)
  const visibleParts = message.parts.filter((p) => p.type !== 'step-start' && p.type !== 'step-finish' && p.type !== 'snapshot' && p.type !== 'compaction')
  // Copy takes what the user typed; inlined files are attachments, copied from their viewer.
  const typedText = () => messageText({ ...message, parts: message.parts.filter((p) => !isInlinedAttachmentPart(p)) })
  const hasText = messageText(message).length > 0
  return (
    <article
      className={`message message-${role}${continued ? ' message-continued' : ''}`}
      data-testid="message"
      data-role={role}
      data-message-id={info.id}
      data-streaming={streaming ? 'true' : undefined}
      // Focusable so keyboard users can act on a message (R retakes it).
      tabIndex={0}
    >
      {!continued && <div className="message-head">{role === 'user' ? 'You' : info.role === 'assistant' ? `${info.agent || 'Assistant'} · ${info.modelID}` : ''}</div>}
      <div className="message-body">
        <MessageFolderProvider value={messageFolder(message)}>
          {visibleParts.map((p) => (
            <PartView key={p.id} part={p} role={role} />
          ))}
        </MessageFolderProvider>
        {streaming && visibleParts.length === 0 && (
          <div className="typing" aria-label="Waiting for the answer">
            <span />
            <span />
            <span />
          </div>
        )}
        {error && <ErrorBlock error={error} message={message} />}
        {role === 'assistant' && !streaming && !error && !hasContent(visibleParts) && (
          <div className="aborted-note" data-testid="no-reply">
            No reply
          </div>
        )}
      </div>
      {!streaming && (hasText || role === 'user') && <MessageActions message={message} target={role} copyText={typedText} />}
    </article>
  )
})
