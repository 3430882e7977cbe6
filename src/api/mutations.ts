/**
 * Mutations of the session list on opencode. Results land in the cache directly; events then keep
 * it exact. Sending and stopping a turn are in prompt-mutations.ts (the chat's chunk, not the first load).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { applyToSessions } from './apply-event'
import { getBridge } from '../bridge'
import { clientFor } from './client'
import { queryKeys } from './query-keys'
import { useScope } from './scope'
import type { Session } from './types'
import { unwrap } from '../../shared/unwrap'

function useSessionCache() {
  const qc = useQueryClient()
  const scope = useScope()
  return (type: 'session.created' | 'session.updated' | 'session.deleted', info: Session) =>
    qc.setQueryData<Session[]>(queryKeys.sessions(scope), (list) => applyToSessions(list, { id: 'local', type, properties: { sessionID: info.id, info } } as never))
}

export function useCreateSession() {
  const scope = useScope()
  const patch = useSessionCache()
  return useMutation({
    mutationFn: async () => unwrap('session.create', await clientFor(scope.directory).session.create({})),
    onSuccess: (session) => patch('session.created', session),
  })
}

export function useRenameSession() {
  const scope = useScope()
  const patch = useSessionCache()
  return useMutation({
    mutationFn: async (v: { sessionID: string; title: string }) => unwrap('session.update', await clientFor(scope.directory).session.update(v)),
    onSuccess: (session) => patch('session.updated', session),
  })
}

/** Archives a session (hidden from the list, kept on the server) or brings it back. */
export function useArchiveSession() {
  const scope = useScope()
  const qc = useQueryClient()
  const patch = useSessionCache()
  return useMutation({
    mutationFn: async (v: { sessionID: string; archived: boolean }) =>
      unwrap('session.update', await clientFor(scope.directory).session.update({ sessionID: v.sessionID, time: { archived: v.archived ? Date.now() : 0 } })),
    onSuccess: (session) => {
      patch('session.updated', session)
      void qc.invalidateQueries({ queryKey: queryKeys.archivedSessions(scope) })
      // Brought back: the list must hold it again (the event reducer only drops archived ones).
      void qc.invalidateQueries({ queryKey: queryKeys.sessions(scope) })
    },
  })
}

export function useDeleteSession() {
  const scope = useScope()
  const patch = useSessionCache()
  return useMutation({
    mutationFn: async (session: Session) => {
      unwrap('session.delete', await clientFor(scope.directory).session.delete({ sessionID: session.id }))
      // Retake's own records of the session (checkpoints, saved retakes, attempts) go with it; the
      // session is already gone, so a failure here is only logged.
      await getBridge()
        .invoke('sessions.forget', { directory: scope.directory, sessionID: session.id })
        .catch((err: unknown) => console.warn('[sessions] could not forget local records', err))
      return session
    },
    onSuccess: (session) => patch('session.deleted', session),
  })
}
