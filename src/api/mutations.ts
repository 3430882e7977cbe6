/** Mutations on opencode. Results land in the cache directly; events then keep it exact. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ModelRef, PartInput } from '../../shared/ipc-contract'
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
      // Retake's own records of the session (checkpoints, saved retries, attempts) go with it; the
      // session is already gone, so a failure here is only logged.
      await getBridge()
        .invoke('sessions.forget', { directory: scope.directory, sessionID: session.id })
        .catch((err: unknown) => console.warn('[sessions] could not forget local records', err))
      return session
    },
    onSuccess: (session) => patch('session.deleted', session),
  })
}

export interface PromptInput {
  sessionID: string
  /** Chosen by Retake, so the message can be recognised once the server has stored it. */
  messageID?: string
  /** Send even though no checkpoint could be recorded (the user was told). */
  skipCheckpoint?: boolean
  text: string
  /** The full parts (text, inlined text files, file parts); when given, `text` is not sent separately. */
  parts?: PartInput[]
  model?: ModelRef
  agent?: string
}

type SdkParts = NonNullable<Parameters<ReturnType<typeof clientFor>['session']['promptAsync']>[0]>['parts']

/** Sends a prompt with promptAsync (204 at once); the event stream then drives the timeline. */
export function useSendPrompt() {
  const scope = useScope()
  return useMutation({
    mutationFn: async ({ sessionID, messageID, skipCheckpoint, text, parts, model, agent }: PromptInput) => {
      unwrap(
        'session.promptAsync',
        await clientFor(scope.directory).session.promptAsync(
          {
            sessionID,
            ...(messageID ? { messageID } : {}),
            // PartInput's `source` is `unknown` (validated by zod elsewhere); the SDK types it precisely.
            parts: (parts ?? [{ type: 'text', text }]) as SdkParts,
            ...(model ? { model } : {}),
            ...(agent ? { agent } : {}),
          },
          skipCheckpoint ? { headers: { 'x-retake-checkpoint': 'skip' } } : undefined,
        ),
      )
    },
  })
}

export { isCheckpointFailure } from '../../shared/retry/checkpoint-failure'

export function useAbort() {
  const scope = useScope()
  return useMutation({
    mutationFn: async (sessionID: string) => unwrap('session.abort', await clientFor(scope.directory).session.abort({ sessionID })),
  })
}
