/**
 * A provider key was saved or removed and opencode has not picked it up yet: its providers are
 * built once per project instance, so the instance must be reloaded (use-apply-provider-keys.ts).
 */
import { create } from 'zustand'

interface ProviderKeysState {
  pendingApply: boolean
  setPendingApply(pending: boolean): void
}

export const useProviderKeysStore = create<ProviderKeysState>((set) => ({
  pendingApply: false,
  setPendingApply: (pendingApply) => set({ pendingApply }),
}))
