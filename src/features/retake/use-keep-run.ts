/**
 * "Keep this one" of the compare view: continue from that run's attempt in one step. The host
 * plans the switch's files first; with nothing to choose (no file changed since the runs) the
 * switch runs with the restore sheet's defaults, and the kept run's model becomes the session's.
 * Otherwise, or when the plan cannot be made, the restore sheet asks as for any continue.
 */
import { getBridge } from '../../bridge'
import { useScope } from '../../api/scope'
import type { Attempt, ModelRef } from '../../../shared/ipc-contract'
import type { RestoreDecision } from '../checkpoints'
import { keepsInOneStep } from './compare-columns'

export function useKeepRun(deps: {
  runContinue(a: Attempt, d?: RestoreDecision): Promise<boolean>
  /** Ask through the restore sheet; the model is chosen once that switch is done. */
  ask(a: Attempt, model: ModelRef): void
  chooseModel(model: ModelRef): void
  say(text: string): void
}) {
  const { directory } = useScope()
  return async (a: Attempt, model: ModelRef, label: string) => {
    deps.say(`Switching to the answer of ${label}…`)
    const plan = await getBridge()
      .invoke('checkpoints.plan', { directory, target: { backTo: { sessionID: a.sessionID, messageID: a.messageID } } })
      .catch(() => null)
    if (!plan || !keepsInOneStep(plan)) return deps.ask(a, model)
    if (await deps.runContinue(a, { mode: 'both', planId: plan.planId, overwrite: [], keep: [] })) deps.chooseModel(model)
  }
}
