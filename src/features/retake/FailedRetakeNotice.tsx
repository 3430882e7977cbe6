/**
 * A retake that did not go through (server down, 500, a model that does not exist): the message was
 * saved before anything destructive ran, so it is offered again — Send again, or Edit it in the
 * composer. Also shown after a restart of the app (the saved copy lives in the data dir).
 */
import type { SavedRetake } from '../../../shared/ipc-contract'
import { useRetakeContext } from './retake-context'

export function FailedRetakeNotice({ saved }: { saved: SavedRetake }) {
  const ctx = useRetakeContext()
  if (!ctx) return null
  const interrupted = saved.state === 'pending'
  const noCheckpoint = saved.noCheckpoint === true
  return (
    <div className="failed-retake" role="alert" data-testid="failed-retake">
      <div className="failed-retake-title">Retake did not go through</div>
      <div className="failed-retake-detail muted">{interrupted ? 'It was interrupted before it finished (the app or server stopped).' : saved.error} Your message is kept.</div>
      <div className="failed-retake-buttons">
        <button
          type="button"
          className="button button-primary small"
          data-testid="send-again"
          disabled={ctx.locked || !ctx.model}
          onClick={() => ctx.model && void ctx.retake(saved.messageID, ctx.model, saved)}
        >
          Send again{ctx.model ? ` with ${ctx.modelLabel}` : ''}
        </button>
        {noCheckpoint && (
          <button
            type="button"
            className="button button-secondary small"
            data-testid="send-again-without-checkpoint"
            disabled={ctx.locked || !ctx.model}
            onClick={() => ctx.model && void ctx.retake(saved.messageID, ctx.model, saved, undefined, { skipCheckpoint: true })}
          >
            Send again without a checkpoint
          </button>
        )}
        <button type="button" className="button button-secondary small" data-testid="edit-saved" onClick={() => ctx.editSaved(saved)}>
          Edit
        </button>
        <button type="button" className="button button-secondary small" data-testid="discard-saved" onClick={() => ctx.discardSaved(saved)}>
          Discard
        </button>
      </div>
    </div>
  )
}
