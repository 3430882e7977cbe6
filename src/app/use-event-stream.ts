/** Applies the directory's event stream to the React Query cache with setQueryData, never refetching. */
import { useEffect, useRef } from 'react'
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { applyToMessages, applyToSessions, applyToStatus, eventSessionID } from '../api/apply-event'
import { eventStreamUrl } from '../api/client'
import { connectEventStream } from '../api/event-stream'
import { queryKeys, type Scope } from '../api/query-keys'
import type { MessageWithParts, OpencodeEvent, Session, StatusMap } from '../api/types'
import { useSessionErrors } from '../features/sessions/session-errors-store'
import { useSessionMarks } from '../features/sessions/session-marks-store'
import { notifyTurn } from '../features/sessions/turn-notifier'
import { useUiStore } from '../ui/ui-store'
import { applyToPermissions, applyToQuestions, type PermissionRequest, type QuestionRequest } from '../features/chat/permissions'

/** One event into the cache. Entries not loaded yet are left alone (their fetch will be current). */
export function applyEventToQueryClient(qc: QueryClient, scope: Scope, event: OpencodeEvent): void {
  qc.setQueryData<Session[]>(queryKeys.sessions(scope), (list) => applyToSessions(list, event))
  qc.setQueryData<StatusMap>(queryKeys.status(scope), (map) => (map ? applyToStatus(map, event) : map))
  const sid = eventSessionID(event)
  if (sid) qc.setQueryData<MessageWithParts[]>(queryKeys.messages(scope, sid), (list) => applyToMessages(list, event))
  qc.setQueryData<PermissionRequest[]>(queryKeys.permissions(scope), (list) => applyToPermissions(list, event))
  qc.setQueryData<QuestionRequest[]>(queryKeys.questions(scope), (list) => applyToQuestions(list, event))
  if (event.type === 'session.deleted') qc.removeQueries({ queryKey: queryKeys.messages(scope, event.properties.info.id) })
}

export function useEventStream(scope: Scope, visibleSessionID: string | undefined) {
  const qc = useQueryClient()
  const visible = useRef(visibleSessionID)
  visible.current = visibleSessionID

  useEffect(() => {
    const setStream = useUiStore.getState().setStream
    const applyError = useSessionErrors.getState().apply
    const applyMark = useSessionMarks.getState().apply
    setStream('connecting')
    return connectEventStream(eventStreamUrl(scope.directory), {
      onEvents(events) {
        for (const e of events) {
          applyEventToQueryClient(qc, scope, e)
          applyError(e)
          applyMark(e, visible.current)
          notifyTurn(qc, scope, e)
        }
      },
      onOpen(reconnected) {
        setStream('open')
        if (!reconnected) return
        // Events were missed while down: refetch what is on screen, once.
        void qc.invalidateQueries({ queryKey: queryKeys.sessions(scope) })
        void qc.invalidateQueries({ queryKey: queryKeys.status(scope) })
        void qc.invalidateQueries({ queryKey: queryKeys.permissions(scope) })
        void qc.invalidateQueries({ queryKey: queryKeys.questions(scope) })
        if (visible.current) void qc.invalidateQueries({ queryKey: queryKeys.messages(scope, visible.current) })
      },
      onDown() {
        setStream('reconnecting')
      },
    })
  }, [qc, scope])
}
