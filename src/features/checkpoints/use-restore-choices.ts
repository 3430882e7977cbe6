/**
 * The restore sheet's plan and the user's choices in it: the plan of the turn's files (asked for
 * when the sheet opens), what to roll back, each conflict's keep/take, and the files left as they are.
 */
import { useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import type { RestorePlan } from '../../../shared/ipc-contract'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import type { MessageWithParts } from '../../api/types'
import { outsideWrites } from './plan-words'
import { groupPlan, overwriteIds, planIsEmpty, restoreModes, type ConflictChoice, type RestoreMode, type RestorePurposeKind } from './checkpoint-logic'
import { usePlanRestore } from './use-checkpoints'

export interface RestoreDecision {
  mode: RestoreMode
  planId: string
  overwrite: string[]
  /** Files of the plan left as they are (the user's per-file choice; conflicts are kept by default). */
  keep: string[]
}

export function useRestoreChoices(props: {
  sessionID: string
  messageID: string
  purpose: RestorePurposeKind
  onConfirm(decision: RestoreDecision): void
  only?: { root: string; path: string }
}) {
  const planner = usePlanRestore()
  const scope = useScope()
  const directory = scope.directory
  const qc = useQueryClient()
  const [plan, setPlan] = useState<RestorePlan | null>(null)
  const [mode, setMode] = useState<RestoreMode>(restoreModes(props.purpose)[0]!)
  // Keep my version unless the user says otherwise: a conflict missing here is kept.
  const [choices, setChoices] = useState<Record<string, ConflictChoice>>({})
  // Every file the turn changed can be left as it is, not only the ones changed since.
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set())
  const { mutate } = planner
  const only = props.only ? `${props.only.root}\n${props.only.path}` : null

  useEffect(() => {
    mutate(
      { backTo: { sessionID: props.sessionID, messageID: props.messageID } },
      {
        onSuccess: (p) => {
          // One file asked for: every other file of the plan starts left as it is (the user may still tick it).
          if (only) setKept(new Set(p.actions.filter((a) => `${a.root}\n${a.path}` !== only).map((a) => a.id)))
          setPlan(p)
        },
      },
    )
  }, [mutate, props.sessionID, props.messageID, only])

  const groups = plan ? groupPlan(plan) : null
  const empty = groups ? planIsEmpty(groups) : false
  // What the turns' tools wrote outside every recorded folder: from the messages the window has.
  const messages = qc.getQueryData<MessageWithParts[]>(queryKeys.messages(scope, props.sessionID))
  const outside = plan
    ? outsideWrites(
        messages,
        plan.turns.map((t) => t.messageID),
        directory,
        [...new Set(plan.actions.map((a) => a.root))],
      )
    : []
  const confirm = () => {
    if (mode === 'conversation') props.onConfirm({ mode, planId: '', overwrite: [], keep: [] })
    else if (plan && groups) props.onConfirm({ mode, planId: plan.planId, overwrite: overwriteIds(groups.conflicts, choices), keep: [...kept] })
  }
  return { planner, directory, plan, groups, empty, outside, mode, setMode, choices, setChoices, kept, setKept, confirm }
}

export type RestoreChoices = ReturnType<typeof useRestoreChoices>
