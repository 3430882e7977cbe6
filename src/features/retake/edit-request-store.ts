/**
 * "Edit the last message" asked from outside the message (↑ in the empty composer): the message's
 * own Edit action opens when it sees its id here, then clears it.
 */
import { create } from 'zustand'

interface EditRequestState {
  messageID: string | null
  request(messageID: string): void
  clear(): void
}

export const useEditRequest = create<EditRequestState>()((set) => ({
  messageID: null,
  request: (messageID) => set({ messageID }),
  clear: () => set({ messageID: null }),
}))
