/**
 * The Checkpoints panel's state: the session's turns (asked for again until each is sealed), the
 * turn whose restore sheet is open, the last restore (the host's record, the one query every undo
 * reads) and the outcome of the last action; and the actions (open a restore, apply it, undo or
 * redo the last one).
 */
import { useEffect, useState } from 'react'
import { useMessages } from '../../api/queries'
import { useScope } from '../../api/scope'
import type { RestoreResult, TurnCheckpoint } from '../../../shared/ipc-contract'
import type { RestoreDecision } from './use-restore-choices'
import { useApplyRestore, useCaptureProgress, useLastRestore, useTurnCheckpoints, useUndoRestore } from './use-checkpoints'
import { useTurnMessages } from './use-turn-messages'

export interface RestoreOutcomeShown {
  verb: 'Restore' | 'Undo' | 'Redo'
  result: RestoreResult
}

/** Esc and the close button belong to the panel's dialog (src/ui/Dialog.tsx), not to this state. */
export function useCheckpointRestores(sessionID: string, busy: boolean) {
  const { directory } = useScope()
  // `busy` flipping back to idle is when a turn is sealed: the list is refetched then.
  const turns = useTurnCheckpoints(sessionID, busy)
  const loaded = useMessages(sessionID)
  const apply = useApplyRestore()
  const undo = useUndoRestore()
  // From the host's records: survives the next prompt, a reload and a restart.
  const last = useLastRestore(sessionID).data ?? null
  // "Restore back to here" was clicked on this turn: its sheet plans and asks in the panel.
  const [target, setTarget] = useState<TurnCheckpoint | null>(null)
  const progress = useCaptureProgress()
  const [outcome, setOutcome] = useState<RestoreOutcomeShown | null>(null)
  useRefetchUntilSealed(turns, busy)

  const working = apply.isPending || undo.isPending
  // Every turn is named by its question, also one older than the chat's loaded window.
  const ids = [...(turns.data ?? []).map((t) => t.messageID), ...(last ? [last.messageID] : [])]
  const messages = { data: useTurnMessages(sessionID, ids, loaded.data) }
  const state = { apply, undo, last, target, setTarget, setOutcome }
  return { directory, turns, messages, apply, undo, last, target, setTarget, progress, outcome, setOutcome, working, ...restoreActions(state) }
}

/**
 * The host seals a turn just after the session goes idle, so the refetch on idle can still see it
 * open (no changes yet): ask again shortly until every turn is sealed.
 */
function useRefetchUntilSealed(turns: ReturnType<typeof useTurnCheckpoints>, busy: boolean) {
  const hasOpen = !busy && !!turns.data?.some((t) => t.status === 'open')
  const refetchTurns = turns.refetch
  useEffect(() => {
    if (!hasOpen) return
    const timer = setTimeout(() => void refetchTurns(), 500)
    return () => clearTimeout(timer)
  }, [hasOpen, turns.dataUpdatedAt, refetchTurns])
}

interface RestoreState {
  apply: ReturnType<typeof useApplyRestore>
  undo: ReturnType<typeof useUndoRestore>
  last: ReturnType<typeof useLastRestore>['data'] | null
  target: TurnCheckpoint | null
  setTarget(target: TurnCheckpoint | null): void
  setOutcome(outcome: RestoreOutcomeShown | null): void
}

function restoreActions({ apply, undo, last, target, setTarget, setOutcome }: RestoreState) {
  function startRestore(turn: TurnCheckpoint) {
    setOutcome(null)
    apply.reset()
    setTarget(turn)
  }

  /** The sheet's decision, files only: its conflicts kept unless taken, its kept files left alone. */
  function confirm(decision: RestoreDecision) {
    if (!target) return
    apply.mutate(
      { planId: decision.planId, overwrite: decision.overwrite, keep: decision.keep },
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

  return { startRestore, confirm, undoLast }
}

export type CheckpointRestores = ReturnType<typeof useCheckpointRestores>
