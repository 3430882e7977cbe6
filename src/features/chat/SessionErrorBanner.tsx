/** A session error that no message in the timeline shows (e.g. an unknown model: no reply exists). */
import type { MessageError } from '../../api/types'
import { describeError } from '../../api/message-errors'
import { ErrorDetails } from './ErrorBlock'

export function SessionErrorBanner({ error, onDismiss }: { error: MessageError; onDismiss(): void }) {
  const d = describeError(error)
  return (
    <div className="session-error" role="alert" data-testid="session-error">
      <div className="session-error-body">
        <div className="error-title">
          {d.name}
          {d.statusCode !== undefined ? ` · HTTP ${d.statusCode}` : ''}
        </div>
        <div className="error-message">{d.message}</div>
        <ErrorDetails details={d.details} />
      </div>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={onDismiss}>
        ✕
      </button>
    </div>
  )
}
