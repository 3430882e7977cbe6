/** `session.error` events per session, reduced by the pure `applyToSessionErrors`. */
import { create } from 'zustand'
import { applyToSessionErrors } from '../../api/apply-event'
import type { MessageError, OpencodeEvent } from '../../api/types'

interface SessionErrorsState {
  errors: Record<string, MessageError | undefined>
  apply(event: OpencodeEvent): void
  clear(sessionID: string): void
}

export const useSessionErrors = create<SessionErrorsState>()((set) => ({
  errors: {},
  apply: (event) =>
    set((s) => {
      const errors = applyToSessionErrors(s.errors, event)
      return errors === s.errors ? s : { errors }
    }),
  clear: (sessionID) => set((s) => (s.errors[sessionID] ? { errors: { ...s.errors, [sessionID]: undefined } } : s)),
}))
