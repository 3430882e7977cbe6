/**
 * Composer drafts per session, persisted: a draft survives switching sessions, a failed send and a
 * reload. Key: `<directory>\n<sessionID or "new">`.
 */
import { create } from 'zustand'
import { persist, createJSONStorage } from 'zustand/middleware'

export const draftKey = (directory: string, sessionID: string | undefined) => `${directory}\n${sessionID ?? 'new'}`

interface DraftsState {
  drafts: Record<string, string>
  setDraft(key: string, text: string): void
  /**
   * Puts text that did not get through (a failed send, a retake to edit) back into a composer
   * without losing what the user typed meanwhile: it goes first, their new text after it.
   */
  giveBack(key: string, text: string): void
}

export const useDraftsStore = create<DraftsState>()(
  persist(
    (set) => ({
      drafts: {},
      setDraft: (key, text) =>
        set((s) => {
          const drafts = { ...s.drafts }
          if (text) drafts[key] = text
          else delete drafts[key]
          return { drafts }
        }),
      giveBack: (key, text) =>
        set((s) => {
          const current = s.drafts[key] ?? ''
          if (!text || current === text || current.startsWith(`${text}\n\n`)) return s
          return { drafts: { ...s.drafts, [key]: current ? `${text}\n\n${current}` : text } }
        }),
    }),
    { name: 'retake.drafts', storage: createJSONStorage(() => localStorage) },
  ),
)
