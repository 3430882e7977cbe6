/** The external link waiting for the user's OK (one at a time: a new click replaces the old one). */
import { create } from 'zustand'

interface LinkPromptState {
  url: string | null
  ask(url: string): void
  dismiss(): void
}

export const useLinkPrompt = create<LinkPromptState>((set) => ({
  url: null,
  ask: (url) => set({ url }),
  dismiss: () => set({ url: null }),
}))
