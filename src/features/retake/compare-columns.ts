/**
 * The columns of the compare view, from the runs the host reported: run i's answers are the
 * attempt the next run kept (its `keptAt`); the last run is the current branch in the timeline.
 */
import type { MessageWithParts } from '../../api/types'
import type { Attempt, ChangeItem, ModelRef, RestorePlan, RetakeCompareOutcome, TurnCheckpoint } from '../../../shared/ipc-contract'

export interface CompareColumn {
  model: ModelRef
  modelLabel: string
  /** The answers (assistant messages) of the run. */
  answers: MessageWithParts[]
  /** Absent for the current branch (the last run). */
  attempt?: Attempt
  /** The current branch's file changes (from its turn's checkpoint). */
  changes?: ChangeItem[]
  /** The run did not go through at all (its error). */
  failed?: string
}

export function compareColumns(
  comparison: { messageID: string; runs: RetakeCompareOutcome['runs'] },
  from: { attempts: Attempt[]; messages: MessageWithParts[]; checkpoints: TurnCheckpoint[]; labelOf(m: ModelRef): string },
): CompareColumn[] {
  const { messageID, runs } = comparison
  const ran = runs.filter((r) => r.outcome.status === 'done')
  return runs.map((run, i) => {
    const base = { model: run.model, modelLabel: from.labelOf(run.model) }
    if (run.outcome.status === 'failed') return { ...base, answers: [], failed: run.outcome.error }
    const next = runs[i + 1]?.outcome
    if (run === ran.at(-1)) {
      // The current branch: the answers after the retaken question, as the timeline has them.
      const at = from.messages.findIndex((m) => m.info.id === messageID)
      const answers = at < 0 ? [] : from.messages.slice(at + 1).filter((m) => m.info.role === 'assistant')
      return { ...base, answers, changes: from.checkpoints.find((t) => t.messageID === messageID)?.changes ?? [] }
    }
    const kept = next?.status === 'done' ? next.keptAt : undefined
    const attempt = from.attempts.find((a) => a.messageID === messageID && a.at === kept)
    const answers = ((attempt?.messages ?? []) as MessageWithParts[]).filter((m) => m.info.role === 'assistant')
    return { ...base, answers, ...(attempt ? { attempt } : { failed: 'its answer was not kept' }) }
  })
}

/**
 * "Keep this one" in one step: the switch runs at once with the sheet's defaults when nothing in
 * the plan needs a choice. A file changed since the runs (a conflict) still asks, through the
 * restore sheet: nothing the user wrote is overwritten without it.
 */
export function keepsInOneStep(plan: Pick<RestorePlan, 'actions'>): boolean {
  return !plan.actions.some((a) => a.kind === 'conflict')
}
