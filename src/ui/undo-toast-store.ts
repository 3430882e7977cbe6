/**
 * One undoable action at a time ("Deleted “x” · Undo"): shown for a few seconds; `commit` runs when
 * the time is up (or a newer action replaces it), `undo` when the user asks.
 */
import { create } from 'zustand'

export interface UndoableAction {
  label: string
  undo(): void
  /** What finishes the action (e.g. the real delete); absent when nothing is left to do. */
  commit?(): void
}

interface UndoToastState {
  current: (UndoableAction & { id: number }) | null
  show(action: UndoableAction): void
  undo(): void
  expire(id: number): void
}

let next = 1

export const useUndoToast = create<UndoToastState>((set, get) => ({
  current: null,
  show(action) {
    get().current?.commit?.()
    set({ current: { ...action, id: next++ } })
  },
  undo() {
    const cur = get().current
    set({ current: null })
    cur?.undo()
  },
  expire(id) {
    const cur = get().current
    if (!cur || cur.id !== id) return
    set({ current: null })
    cur.commit?.()
  },
}))
