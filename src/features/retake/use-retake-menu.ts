/**
 * ↺'s own state: the "Retake with…" menu, the models picked to compare, the question an earlier
 * turn asks first; and what each choice starts (a retake, the restore sheet, or the question).
 */
import { useRef, useState } from 'react'
import type { ModelRef } from '../../../shared/ipc-contract'
import { laterTurns, retakeEntry } from '../../../shared/retake/retake-target'
import { modelKey } from '../models'
import type { RetakeContextValue } from './retake-context'

/** How many models one "Retake with several" runs at most (each run is a whole turn). */
export const MAX_COMPARE = 3

/** An earlier turn asks first: retake it with `model` (or compare `compare`), discarding `later` turns? */
export interface RetakeConfirmRequest {
  model: ModelRef
  later: number
  compare?: ModelRef[]
}

export function useRetakeMenu() {
  const [menuOpen, setMenuOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const [confirm, setConfirm] = useState<RetakeConfirmRequest | null>(null)
  // "Compare several": the models picked so far (up to MAX_COMPARE), in the order picked.
  const [several, setSeveral] = useState<ModelRef[] | null>(null)
  return { menuOpen, setMenuOpen, menuButton, confirm, setConfirm, several, setSeveral }
}

export type RetakeMenu = ReturnType<typeof useRetakeMenu>

/** What ↺ and the menu's choices do for the user turn `target` of the clicked message `clickedID`. */
export function retakeChoices(ctx: RetakeContextValue, clickedID: string, target: string, menu: RetakeMenu) {
  const { setMenuOpen, setConfirm, setSeveral } = menu
  const go = (model: ModelRef) => {
    setMenuOpen(false)
    const later = laterTurns(ctx.getMessages(), target)
    const entry = retakeEntry(ctx.changedFiles(target), later)
    if (entry === 'sheet') ctx.openRestoreSheet(clickedID, model)
    else if (entry === 'confirm') setConfirm({ model, later })
    else void ctx.retake(clickedID, model)
  }
  // The session's model is not changed here: only a retake that runs makes it the session's
  // (retake-context-value.ts), so a Cancel in the question or the sheet leaves the model as it was.
  const withModel = (ref: ModelRef) => go(ref)
  const pick = (ref: ModelRef) =>
    setSeveral((list) => {
      const now = list ?? []
      if (now.some((m) => modelKey(m) === modelKey(ref))) return now.filter((m) => modelKey(m) !== modelKey(ref))
      return now.length >= MAX_COMPARE ? now : [...now, ref]
    })
  const compare = (models: ModelRef[]) => {
    setMenuOpen(false)
    setSeveral(null)
    const later = laterTurns(ctx.getMessages(), target)
    const entry = retakeEntry(ctx.changedFiles(target), later)
    if (entry === 'sheet') ctx.openRestoreSheet(clickedID, models[0]!, undefined, models)
    else if (entry === 'confirm') setConfirm({ model: models[0]!, later, compare: models })
    else void ctx.compare(clickedID, models)
  }
  return { go, withModel, pick, compare }
}

export type RetakeChoices = ReturnType<typeof retakeChoices>
