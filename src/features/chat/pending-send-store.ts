/** Messages sent but not yet seen stored on the server, per session (see lib/pending-send.ts). */
import { create } from 'zustand'
import type { PendingSend } from './pending-send'
import type { PendingAttachment } from '../attachments'

interface PendingSendState {
  pending: Record<string, PendingSend<PendingAttachment> | undefined>
  set(p: PendingSend<PendingAttachment>): void
  clear(sessionID: string, messageID: string): void
}

export const usePendingSendStore = create<PendingSendState>()((set) => ({
  pending: {},
  set: (p) => set((s) => ({ pending: { ...s.pending, [p.sessionID]: p } })),
  clear: (sessionID, messageID) => set((s) => (s.pending[sessionID]?.messageID === messageID ? { pending: { ...s.pending, [sessionID]: undefined } } : s)),
}))
