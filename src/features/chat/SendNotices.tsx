/**
 * Above the composer: the checkpoint being recorded before a turn (a first capture of a big folder
 * takes a while), and — when it could not be recorded — the choice to send without one.
 */
import type { EventPayload } from '../../../shared/ipc-contract'

export function SendNotices({
  progress,
  checkpointFailed,
  onSendWithoutCheckpoint,
}: {
  progress: EventPayload<'checkpoint.progress'> | null
  checkpointFailed: boolean
  onSendWithoutCheckpoint(): void
}) {
  if (!progress && !checkpointFailed) return null
  const pct = progress && progress.filesTotal > 0 ? Math.min(100, Math.round((progress.filesDone / progress.filesTotal) * 100)) : 0
  return (
    <div className="send-notices">
      {progress && (
        <div className="capture-progress" role="status" data-testid="capture-progress">
          <span>
            Recording a checkpoint of the folder… {progress.filesDone.toLocaleString()} / {progress.filesTotal.toLocaleString()} files
          </span>
          <progress max={100} value={pct} aria-label="Checkpoint progress" />
        </div>
      )}
      {checkpointFailed && (
        <div className="checkpoint-failed" role="alert" data-testid="checkpoint-failed">
          Without a checkpoint, this turn’s file changes cannot be rolled back by ↺.
          <button type="button" className="button button-secondary small" data-testid="send-without-checkpoint" onClick={onSendWithoutCheckpoint}>
            Send without a checkpoint
          </button>
        </div>
      )}
    </div>
  )
}
