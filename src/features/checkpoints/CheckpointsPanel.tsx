/**
 * The session's checkpoints as a side sheet: every recorded turn with what it changed on disk,
 * "Restore back to here" (the restore sheet, files only, in the panel: plan → per-file choices →
 * apply → result), undo of the last restore, and storage with a clean-up. Restores from here are
 * files only: the conversation is left as it is (↺ on a message is what rolls back both).
 */
import { errorMessage } from '../../../shared/unwrap'
import { Dialog } from '../../ui/Dialog'
import { turnLabel } from './checkpoint-logic'
import { RestoreOutcome } from './RestoreOutcome'
import { RestoreSheet } from './RestoreSheet'
import { StorageSection } from './StorageSection'
import { TurnList } from './TurnList'
import { useCheckpointRestores, type CheckpointRestores } from './use-checkpoint-restores'
import '../../styles/checkpoints.css'

/** The last restore (from the host's records) and its undo, or redo once undone. */
function LastRestoreRow({ panel }: { panel: CheckpointRestores }) {
  const { last, messages, undo, working } = panel
  if (!last) return null
  const lastLabel = turnLabel({ messageID: last.messageID, createdAt: last.at }, messages.data)
  return (
    <div className="ckpt-undo">
      <span className="muted small">
        Last restore: back to “{lastLabel}”{last.rolledBack ? '' : ' (undone)'}
      </span>
      <button type="button" className="button button-secondary small" data-testid={last.rolledBack ? 'undo-restore' : 'redo-restore'} disabled={working} onClick={panel.undoLast}>
        {undo.isPending ? 'Working…' : last.rolledBack ? 'Undo last restore' : 'Redo restore'}
      </button>
    </div>
  )
}

/** Every recorded turn with what it changed, each with "Restore back to here". */
function TurnsSection({ panel, busy }: { panel: CheckpointRestores; busy: boolean }) {
  const { turns, messages, directory } = panel
  return (
    <section className="ckpt-section">
      <h3>Turns</h3>
      {turns.isLoading ? (
        <p className="muted">Loading checkpoints…</p>
      ) : turns.error ? (
        <div className="inline-error">{errorMessage(turns.error)}</div>
      ) : turns.data && turns.data.length > 0 ? (
        <TurnList turns={turns.data} messages={messages.data} projectRoot={directory} disabled={busy || panel.working} onRestore={panel.startRestore} />
      ) : (
        <p className="muted" data-testid="no-checkpoints">
          No turns recorded yet. Each prompt you send is checkpointed.
        </p>
      )}
    </section>
  )
}

export function CheckpointsPanel({ sessionID, busy, onClose }: { sessionID: string; busy: boolean; onClose(): void }) {
  const panel = useCheckpointRestores(sessionID, busy)
  const { directory, messages, apply, undo, target, setTarget, progress, outcome, setOutcome } = panel

  return (
    <Dialog className="ckpt-sheet" labelledBy="ckpt-title" testid="checkpoints-panel" onClose={onClose}>
      <div className="dialog-head">
        <h2 id="ckpt-title">Checkpoints</h2>
        <button type="button" className="icon-button" aria-label="Close" data-testid="close-checkpoints" onClick={onClose}>
          ✕
        </button>
      </div>
      <p className="muted small ckpt-intro">
        Every turn records the project folder (and your extra folders) before and after it runs. Restoring from here puts files back only: the conversation is not touched.
      </p>
      {busy && <div className="ckpt-warning">A turn is running: restores wait until it has finished.</div>}
      {progress && progress.sessionID === sessionID && (
        <div className="muted small" data-testid="capture-progress">
          Recording the folder: {progress.filesDone} of {progress.filesTotal} files…
        </div>
      )}
      {outcome && <RestoreOutcome result={outcome.result} verb={outcome.verb} projectRoot={directory} onDismiss={() => setOutcome(null)} />}
      {!target && <LastRestoreRow panel={panel} />}
      {undo.error && (
        <div className="inline-error" role="alert">
          {errorMessage(undo.error)}
        </div>
      )}
      {target ? (
        <RestoreSheet
          sessionID={sessionID}
          messageID={target.messageID}
          purpose={{ kind: 'files', turnLabel: turnLabel(target, messages.data), applying: apply.isPending, error: apply.error ? errorMessage(apply.error) : null }}
          onConfirm={panel.confirm}
          onCancel={() => setTarget(null)}
        />
      ) : (
        <TurnsSection panel={panel} busy={busy} />
      )}
      <StorageSection />
    </Dialog>
  )
}
