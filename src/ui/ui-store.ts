/** UI-only state: which project and session are open, and whether the event stream is connected. */
import { create } from 'zustand'
import { persist, createJSONStorage } from 'zustand/middleware'

export type StreamState = 'connecting' | 'open' | 'reconnecting'

interface UiState {
  project: string | null
  /**
   * project directory → the session last open in it (so switching projects comes back to it);
   * null: a new conversation the user started, created on the server only by its first prompt.
   */
  selected: Record<string, string | null | undefined>
  stream: StreamState
  setProject(path: string | null): void
  selectSession(project: string, sessionID: string | null): void
  setStream(state: StreamState): void
}

export const useUiStore = create<UiState>()(
  persist(
    (set) => ({
      project: null,
      selected: {},
      stream: 'connecting',
      setProject: (project) => set({ project }),
      selectSession: (project, sessionID) => set((s) => ({ selected: { ...s.selected, [project]: sessionID } })),
      setStream: (stream) => set({ stream }),
    }),
    {
      name: 'retake.ui',
      storage: createJSONStorage(() => localStorage),
      // The project comes from the host each start (app.info / the picker); only selections persist.
      partialize: (s) => ({ selected: s.selected }),
    },
  ),
)
