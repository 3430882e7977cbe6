/** What went wrong with the last export or import, shown in the sidebar until dismissed (UI state). */
import { create } from 'zustand'

interface TransferState {
  problem: string | null
  setProblem(problem: string | null): void
}

export const useTransferProblem = create<TransferState>()((set) => ({ problem: null, setProblem: (problem) => set({ problem }) }))
