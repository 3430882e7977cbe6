/** Whether the user asked for system notifications when a turn ends in the background (persisted). */
import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'

interface NotifyState {
  enabled: boolean
  setEnabled(enabled: boolean): void
}

export const useNotifyStore = create<NotifyState>()(
  persist((set) => ({ enabled: false, setEnabled: (enabled) => set({ enabled }) }), {
    name: 'retake.notify',
    storage: createJSONStorage(() => localStorage),
  }),
)
