/** Which of the chat's side panels is open (UI state), so the command palette can open them too. */
import { create } from 'zustand'

export type ChatPanel = 'changes' | 'checkpoints'

interface PanelsState {
  open: ChatPanel | null
  show(panel: ChatPanel): void
  close(): void
}

export const useChatPanels = create<PanelsState>()((set) => ({ open: null, show: (open) => set({ open }), close: () => set({ open: null }) }))
