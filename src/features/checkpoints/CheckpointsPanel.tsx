/**
 * The session's checkpoints as a side sheet: every recorded turn with what it changed on disk,
 * "Restore back to here" (plan → confirm with per-file conflict choices → apply → result), undo of
 * the last restore, and storage with a clean-up. Restores from here are files only: the
 * conversation is left as it is (↺ on a message is what rolls back both).
 */
import { useEffect, useState } from 'react'
import { useMessages } from '../../api/queries'
import { useScope } from '../../api/scope'
import { errorMessage } from '../../../shared/unwrap'
import { useApplyRestore, useCaptureProgress, useLastRestore, usePlanRestore, useTurnCheckpoints, useUndoRestore } from './use-checkpoints'
import type { RestorePlan, RestoreResult, TurnCheckpoint } from '../../../shared/ipc-contract'
import { turnLabel } from './checkpoint-logic'
import { RestoreConfirm, RestoreOutcome } from './RestoreConfirm'
import { StorageSection } from './StorageSection'
import { TurnList } from './TurnList'
import '../../styles/checkpoints.css'

export function CheckpointsPanel({ sessionID, busy, onClose }: { sessionID: string; busy: boolean; onClose(): void }) {
  const { directory } = useScope()
  // `busy` flipping back to idle is when a turn is sealed: the list is refetched then.
  const turns = useTurnCheckpoints(sessionID, busy)
  const messages = useMessages(sessionID)
  const plan = usePlanRestore()
  const apply = useApplyRestore()
  const undo = useUndoRestore()
  // From the host's records: survives the next prompt, a reload and a restart.
  const last = useLastRestore(sessionID).data ?? null
  const [target, setTarget] = useState<{ turn: TurnCheckpoint; plan: RestorePlan } | null>(null)
  const progress = useCaptureProgress()
  const [outcome, setOutcome] = useState<{ verb: 'Restore' | 'Undo' | 'Redo'; result: RestoreResult } | null>(null)

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])

  // The host seals a turn just after the session goes idle, so the refetch on idle can still see it
  // open (no changes yet): ask again shortly until every turn is sealed.
  const hasOpen = !busy && !!turns.data?.some((t) => t.status === 'open')
  const refetchTurns = turns.refetch
  useEffect(() => {
    if (!hasOpen) return
    const timer = setTimeout(() => void refetchTurns(), 500)
    return () => clearTimeout(timer)
  }, [hasOpen, turns.dataUpdatedAt, refetchTurns])

  const working = plan.isPending || apply.isPending || undo.isPending

  function startRestore(turn: TurnCheckpoint) {
    setOutcome(null)
    apply.reset()
    plan.mutate({ backTo: { sessionID, messageID: turn.messageID } }, { onSuccess: (p) => setTarget({ turn, plan: p }) })
  }

  function confirm(overwrite: string[]) {
    if (!target) return
    apply.mutate(
      { planId: target.plan.planId, overwrite },
      {
        onSuccess: (result) => {
          setTarget(null)
          setOutcome({ verb: 'Restore', result })
        },
      },
    )
  }

  function undoLast() {
    if (!last) return
    setOutcome(null)
    undo.mutate(last.restoreId, {
      // The host's chain decides what the next click does (undo, then redo, …): refetched after.
      onSuccess: (result) => setOutcome({ verb: last.rolledBack ? 'Undo' : 'Redo', result }),
    })
  }

  const lastLabel = last ? turnLabel({ messageID: last.messageID, createdAt: last.at }, messages.data) : ''
  const error = plan.error ?? undo.error

  return (
    <div className="ckpt-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <aside className="ckpt-sheet" role="dialog" aria-modal="true" aria-labelledby="ckpt-title" data-testid="checkpoints-panel">
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
        {last && !target && (
          <div className="ckpt-undo">
            <span className="muted small">
              Last restore: back to “{lastLabel}”{last.rolledBack ? '' : ' (undone)'}
            </span>
            <button type="button" className="button button-secondary small" data-testid={last.rolledBack ? 'undo-restore' : 'redo-restore'} disabled={working} onClick={undoLast}>
              {undo.isPending ? 'Working…' : last.rolledBack ? 'Undo last restore' : 'Redo restore'}
            </button>
          </div>
        )}
        {error && (
          <div className="inline-error" role="alert">
            {errorMessage(error)}
          </div>
        )}
        {target ? (
          <RestoreConfirm
            plan={target.plan}
            label={turnLabel(target.turn, messages.data)}
            projectRoot={directory}
            pending={apply.isPending}
            error={apply.error ? errorMessage(apply.error) : null}
            onConfirm={confirm}
            onCancel={() => setTarget(null)}
          />
        ) : (
          <section className="ckpt-section">
            <h3>Turns</h3>
            {plan.isPending && <p className="muted">Working out what to restore…</p>}
            {turns.isLoading ? (
              <p className="muted">Loading checkpoints…</p>
            ) : turns.error ? (
              <div className="inline-error">{errorMessage(turns.error)}</div>
            ) : turns.data && turns.data.length > 0 ? (
              <TurnList turns={turns.data} messages={messages.data} projectRoot={directory} disabled={busy || working} onRestore={startRestore} />
            ) : (
              <p className="muted" data-testid="no-checkpoints">
                No turns recorded yet. Each prompt you send is checkpointed.
              </p>
            )}
          </section>
        )}
        <StorageSection />
      </aside>
    </div>
  )
}
