/**
 * The last files-only restore made from the Checkpoints panel, per project folder and session, so
 * "Undo last restore" knows its id. Persisted: the host keeps restore records across restarts, so
 * the undo should survive a reload of the window too.
 */
import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'

export interface LastRestore {
  restoreId: string
  /** The turn the restore went back to (its user message id), for the label. */
  messageID: string
  at: number
}

interface RestoreState {
  last: Record<string, LastRestore | undefined>
  setLast(key: string, restore: LastRestore): void
  clear(key: string): void
}

/** Sessions ids are per server, not per folder: the folder is part of the key. */
export const restoreKey = (directory: string, sessionID: string) => `${directory}\n${sessionID}`

export const useRestoreStore = create<RestoreState>()(
  persist(
    (set) => ({
      last: {},
      setLast: (key, restore) => set((s) => ({ last: { ...s.last, [key]: restore } })),
      clear: (key) =>
        set((s) => {
          const { [key]: _gone, ...rest } = s.last
          return { last: rest }
        }),
    }),
    { name: 'retake.restores', storage: createJSONStorage(() => localStorage) },
  ),
)
