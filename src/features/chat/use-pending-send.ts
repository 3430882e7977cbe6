/**
 * Watches a sent message until the server has stored it; if the session fails or goes idle without
 * it, gives the text and files back (see lib/pending-send.ts).
 */
import { useEffect, useRef } from 'react'
import type { MessageError, SessionStatus } from '../../api/types'
import { isBusy } from './status-line'
import { pendingOutcome, type PendingSend } from './pending-send'
import type { PendingAttachment } from '../attachments'
import { usePendingSendStore } from './pending-send-store'

export function usePendingSendGuard(opts: {
  sessionID: string | undefined
  messageIDs: readonly string[]
  status: SessionStatus | undefined
  sessionError: MessageError | undefined
  onLost(p: PendingSend<PendingAttachment>, error: MessageError | undefined): void
}) {
  const { sessionID, messageIDs, status, sessionError, onLost } = opts
  const pending = usePendingSendStore((s) => (sessionID ? s.pending[sessionID] : undefined))
  const sawBusy = useRef(false)
  const errorAt = useRef<number | undefined>(undefined)
  useEffect(() => {
    sawBusy.current = false
  }, [pending?.messageID])
  useEffect(() => {
    if (sessionError) errorAt.current = Date.now()
  }, [sessionError])
  useEffect(() => {
    if (isBusy(status)) sawBusy.current = true
  }, [status])
  useEffect(() => {
    if (!pending) return
    const idleSinceSend = !pending.queued && sawBusy.current && !isBusy(status)
    const outcome = pendingOutcome(pending, messageIDs, errorAt.current !== undefined ? { at: errorAt.current } : undefined, idleSinceSend)
    if (outcome === 'waiting') return
    usePendingSendStore.getState().clear(pending.sessionID, pending.messageID)
    if (outcome === 'lost') onLost(pending, sessionError)
  }, [pending, messageIDs, status, sessionError, onLost])
}
