/**
 * Pure decisions of the restore sheet: which turns' file changes a retake would roll back, how to
 * group a restore plan for people, and which conflicts the user chose to overwrite.
 */
import type { RestorePlan, TurnCheckpoint } from '../../../shared/ipc-contract'

/** Turns from `messageID` onward (list order) that changed files and are not rolled back already. */
export function turnsWithFileChanges(userMessageIDs: readonly string[], messageID: string, turns: readonly TurnCheckpoint[]): TurnCheckpoint[] {
  const i = userMessageIDs.indexOf(messageID)
  if (i < 0) return []
  const later = new Set(userMessageIDs.slice(i))
  return turns.filter((t) => later.has(t.messageID) && t.status !== 'restored' && t.changes.length > 0)
}

export type ConflictChoice = 'keep' | 'take'

export interface PlanGroups {
  putBack: RestorePlan['actions']
  remove: RestorePlan['actions']
  conflicts: RestorePlan['actions']
  /** Left as they are: never checkpointed, or another session's work. */
  notCheckpointed: RestorePlan['actions']
}

export function groupPlan(plan: RestorePlan): PlanGroups {
  const g: PlanGroups = { putBack: [], remove: [], conflicts: [], notCheckpointed: [] }
  for (const a of plan.actions) {
    if (a.kind === 'restore' || a.kind === 'recreate') g.putBack.push(a)
    else if (a.kind === 'delete') g.remove.push(a)
    else if (a.kind === 'conflict') g.conflicts.push(a)
    else if (a.kind === 'not-checkpointed' || a.kind === 'not-this-turn') g.notCheckpointed.push(a)
  }
  return g
}

/** Conflicts are kept ("keep mine") unless the user chose to take the checkpoint for that file. */
export function overwriteList(choices: Record<string, ConflictChoice>): string[] {
  return Object.entries(choices)
    .filter(([, c]) => c === 'take')
    .map(([id]) => id)
}

export function changeSummary(changes: TurnCheckpoint['changes']): { files: number; added: number; removed: number } {
  let added = 0
  let removed = 0
  for (const c of changes) {
    added += c.added
    removed += c.removed
  }
  return { files: changes.length, added, removed }
}
