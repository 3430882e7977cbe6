/** The `@` mentions picked into each composer's draft (keyed like the drafts): UI state until sent. */
import { create } from 'zustand'
import type { Mention } from './mentions'

interface MentionsState {
  byDraft: Record<string, Mention[] | undefined>
  add(key: string, mention: Mention): void
  /** Hands the draft's mentions to a send and forgets them. */
  take(key: string): Mention[]
  /** Puts a failed send's mentions back (ahead of any picked since). */
  restore(key: string, mentions: Mention[]): void
}

export const useMentionsStore = create<MentionsState>()((set, get) => ({
  byDraft: {},
  add: (key, mention) => set((s) => ({ byDraft: { ...s.byDraft, [key]: [...(s.byDraft[key] ?? []), mention] } })),
  take: (key) => {
    const taken = get().byDraft[key] ?? []
    set((s) => ({ byDraft: { ...s.byDraft, [key]: undefined } }))
    return taken
  },
  restore: (key, mentions) => set((s) => ({ byDraft: { ...s.byDraft, [key]: [...mentions, ...(s.byDraft[key] ?? [])] } })),
}))
