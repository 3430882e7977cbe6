/** Mutations on opencode. Results land in the cache directly; events then keep it exact. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ModelRef, PartInput } from '../../shared/ipc-contract'
import { applyToSessions } from './apply-event'
import { getBridge } from '../bridge'
import { clientFor } from './client'
import { queryKeys } from './query-keys'
import { useScope } from './scope'
import type { Session } from './types'
import { useProviderKeysStore } from '../features/models/provider-keys-store'
import { unwrap } from '../../shared/unwrap'

function useSessionCache() {
  const qc = useQueryClient()
  const scope = useScope()
  return (type: 'session.created' | 'session.updated' | 'session.deleted', info: Session) =>
    qc.setQueryData<Session[]>(queryKeys.sessions(scope), (list) =>
      applyToSessions(list, { id: 'local', type, properties: { sessionID: info.id, info } } as never),
    )
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
    mutationFn: async (v: { sessionID: string; title: string }) =>
      unwrap('session.update', await clientFor(scope.directory).session.update(v)),
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
    mutationFn: async (sessionID: string) =>
      unwrap('session.abort', await clientFor(scope.directory).session.abort({ sessionID })),
  })
}

/** Stores or removes a provider API key; the provider/model lists are refetched afterwards. */
/**
 * After a key or a sign-in was saved or removed: mark it for the instance reload that makes opencode
 * use it (use-apply-provider-keys.ts) and refetch what lists providers.
 */
export function useProvidersChanged(): () => Promise<unknown> {
  const scope = useScope()
  const qc = useQueryClient()
  return () => {
    useProviderKeysStore.getState().setPendingApply(true)
    return Promise.all([
      qc.invalidateQueries({ queryKey: queryKeys.configProviders(scope) }),
      qc.invalidateQueries({ queryKey: queryKeys.providerList(scope) }),
    ])
  }
}

export function useProviderAuth() {
  const scope = useScope()
  const refresh = useProvidersChanged()
  const set = useMutation({
    // `metadata`: the answers to an API-key method's prompts (an account id, a resource name).
    mutationFn: async (v: { providerID: string; key: string; metadata?: Record<string, string> }) =>
      unwrap(
        'auth.set',
        await clientFor(scope.directory).auth.set({
          providerID: v.providerID,
          auth: { type: 'api', key: v.key, ...(v.metadata && Object.keys(v.metadata).length ? { metadata: v.metadata } : {}) },
        }),
      ),
    onSuccess: refresh,
  })
  const remove = useMutation({
    mutationFn: async (providerID: string) =>
      unwrap('auth.remove', await clientFor(scope.directory).auth.remove({ providerID })),
    onSuccess: refresh,
  })
  return { set, remove }
}
