/** A failed turn, shown once in the timeline: the provider's message and status code. */
import type { MessageError, MessageWithParts } from '../../api/types'
import { describeError } from '../../api/message-errors'
import { MessageActions } from '../../ui/MessageActions'

/** Server-side detail (e.g. a stack trace), folded by default. */
export function ErrorDetails({ details }: { details: string | undefined }) {
  if (!details) return null
  return (
    <details className="error-details">
      <summary>Details</summary>
      <pre>{details}</pre>
    </details>
  )
}

export function ErrorBlock({ error, message }: { error: MessageError; message: MessageWithParts }) {
  const d = describeError(error)
  if (d.aborted) {
    return (
      <div className="aborted-note" data-testid="aborted-note">
        Stopped
      </div>
    )
  }
  const head = d.statusCode !== undefined ? `${d.name} · HTTP ${d.statusCode}` : d.name
  return (
    <div className="error-block" data-testid="error-block" role="alert" data-error-name={d.name}>
      <div className="error-title">{head}</div>
      <div className="error-message" data-testid="error-message">
        {d.message}
      </div>
      <ErrorDetails details={d.details} />
      <MessageActions message={message} target="error" copyText={() => [head, d.message, d.details].filter(Boolean).join('\n')} />
    </div>
  )
}
