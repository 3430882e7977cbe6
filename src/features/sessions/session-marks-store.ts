/** Unseen outcomes of sessions off screen (UI state), reduced by the pure functions in lib/session-marks. */
import { create } from 'zustand'
import type { OpencodeEvent } from '../../api/types'
import { applyToMarks, clearMark, type SessionMarks } from './session-marks'

interface SessionMarksState {
  marks: SessionMarks
  apply(event: OpencodeEvent, shown: string | undefined): void
  clear(sessionID: string): void
}

export const useSessionMarks = create<SessionMarksState>()((set) => ({
  marks: {},
  apply: (event, shown) =>
    set((s) => {
      const marks = applyToMarks(s.marks, event, shown)
      return marks === s.marks ? s : { marks }
    }),
  clear: (sessionID) =>
    set((s) => {
      const marks = clearMark(s.marks, sessionID)
      return marks === s.marks ? s : { marks }
    }),
}))
