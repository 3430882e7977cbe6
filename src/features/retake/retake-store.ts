/** Retakes in flight, per session: they lock Send and ↺, and the message shows the step it is at. */
import { create } from 'zustand'
import type { RetakeStep } from '../../../shared/ipc-contract'

export interface RunningRetake {
  messageID: string
  step: RetakeStep | 'starting'
  startedAt: number
}

interface RetakeRunState {
  running: Record<string, RunningRetake | undefined>
  start(sessionID: string, messageID: string): void
  step(sessionID: string, step: RetakeStep): void
  finish(sessionID: string): void
}

export const useRetakeStore = create<RetakeRunState>()((set) => ({
  running: {},
  start: (sessionID, messageID) => set((s) => ({ running: { ...s.running, [sessionID]: { messageID, step: 'starting', startedAt: Date.now() } } })),
  step: (sessionID, step) =>
    set((s) => {
      const cur = s.running[sessionID]
      return cur ? { running: { ...s.running, [sessionID]: { ...cur, step } } } : s
    }),
  finish: (sessionID) => set((s) => ({ running: { ...s.running, [sessionID]: undefined } })),
}))

/** Words for the step a retake is at, shown on the message while it runs. */
export const RETAKE_STEP_LABEL: Record<RunningRetake['step'], string> = {
  starting: 'Preparing…',
  payload: 'Preparing…',
  save: 'Saving your message…',
  abort: 'Stopping the running turn…',
  locate: 'Checking the message…',
  hold: 'Setting your kept files aside…',
  revert: 'Reverting the conversation…',
  files: 'Restoring files…',
  'delete-parts': 'Clearing the old turn…',
  verify: 'Clearing the old turn…',
  prompt: 'Waiting for the new answer…',
}
