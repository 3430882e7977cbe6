/** What the chat panel reads about the open session: the session, its messages and status, its model, and the error banner. */
import { useEffect, useMemo } from 'react'
import { useMessages, useSessions, useStatusMap } from '../../api/queries'
import { useScope } from '../../api/scope'
import { useUiStore } from '../../ui/ui-store'
import { useSettled } from '../../ui/use-settled'
import { bannerError } from '../../api/message-errors'
import { useSessionErrors } from '../sessions'
import { isBusy } from './status-line'
import { useSessionModel } from './use-session-model'
import { visibleMessages } from './visible-messages'

export function useChatSession(sessionID: string | undefined) {
  const { directory } = useScope()
  const session = useSessions().data?.find((s) => s.id === sessionID)
  const messages = useMessages(sessionID)
  const status = useStatusMap().data?.[sessionID ?? '']
  const busy = isBusy(status)
  const streamConnected = useUiStore((s) => s.stream !== 'reconnecting')
  const model = useSessionModel(directory, sessionID, session)
  return { directory, session, messages, status, busy, streamConnected, model }
}

export type ChatSession = ReturnType<typeof useChatSession>

/** The messages shown (a reverted tail hidden), their ids, and the session's error as the banner shows it. */
export function useChatMessages(sessionID: string | undefined, chat: ChatSession) {
  const { messages, session } = chat
  const visible = useMemo(() => visibleMessages(messages.data ?? [], session?.revert), [messages.data, session?.revert])
  const messageIDs = useMemo(() => (messages.data ?? []).map((m) => m.info.id), [messages.data])
  const sessionError = useSessionErrors((s) => (sessionID ? s.errors[sessionID] : undefined))
  const clearSessionError = useSessionErrors((s) => s.clear)
  // session.error arrives a few ms before the failed message; wait so the banner does not flash.
  const banner = useSettled(bannerError(sessionError, visible), 1000)
  return { visible, messageIDs, sessionError, clearSessionError, banner }
}

export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} — Retake` : 'Retake'
  }, [title])
}
