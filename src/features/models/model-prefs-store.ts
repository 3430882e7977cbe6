/**
 * Models the user reaches for: the few chosen last (newest first) and the starred ones. Kept apart
 * from the per-session choice (model-store) because these are about the person, not a session.
 */
import { create } from 'zustand'
import { persist, createJSONStorage } from 'zustand/middleware'

/** How many recent models the palette offers; more would push the provider list off screen. */
export const RECENT_LIMIT = 5

interface ModelPrefsState {
  /** Model keys (`provider/model`), most recent first. */
  recent: string[]
  favourites: string[]
  markUsed(key: string): void
  toggleFavourite(key: string): void
}

export const useModelPrefs = create<ModelPrefsState>()(
  persist(
    (set) => ({
      recent: [],
      favourites: [],
      markUsed: (key) => set((s) => ({ recent: [key, ...s.recent.filter((k) => k !== key)].slice(0, RECENT_LIMIT) })),
      toggleFavourite: (key) => set((s) => ({ favourites: s.favourites.includes(key) ? s.favourites.filter((k) => k !== key) : [...s.favourites, key] })),
    }),
    { name: 'retake.modelPrefs', storage: createJSONStorage(() => localStorage) },
  ),
)
