/**
 * A "continue from this attempt" that was cut off (the app stopped, the server dropped a call)
 * after the attempt's files were back but before its conversation was: the session shows neither
 * branch whole, and the question it belongs to may be gone from the timeline. Finishing it
 * rewrites only the conversation; no file is touched again (continue-attempt.ts, Attempt.switching).
 */
import type { Attempt } from '../../../shared/ipc-contract'

export function InterruptedSwitchNotice({ attempts, locked, onFinish }: { attempts: Attempt[]; locked?: boolean; onFinish(a: Attempt): void }) {
  const cut = attempts.filter((a) => a.switching)
  if (!cut.length) return null
  return (
    <div className="failed-retake" role="alert" data-testid="interrupted-switch">
      <div className="failed-retake-title">A switch to an earlier attempt did not finish</div>
      <div className="failed-retake-detail muted">Its files are back; its conversation is only partly. Nothing is lost: both branches are kept.</div>
      <div className="failed-retake-buttons">
        {cut.map((a) => (
          <button key={`${a.messageID}/${a.at}`} type="button" className="button button-primary small" data-testid="finish-switch" disabled={locked} onClick={() => onFinish(a)}>
            Finish the switch{cut.length > 1 ? ` (${new Date(a.at).toLocaleTimeString()})` : ''}
          </button>
        ))}
      </div>
    </div>
  )
}
