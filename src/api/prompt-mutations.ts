/** Sending a prompt and stopping a turn: the chat's and the palette's, so not part of the first load (mutations.ts is). */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { ModelRef, PartInput } from '../../shared/ipc-contract'
import { unwrap } from '../../shared/unwrap'
import { clientFor } from './client'
import { queryKeys, type Scope } from './query-keys'
import { useScope } from './scope'

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
  const qc = useQueryClient()
  return useMutation({
    // A new turn: the cards of requests an earlier stop answered have said what they had to.
    onMutate: ({ sessionID }: PromptInput) => setStopped(qc, scope, (list) => list.filter((p) => p.sessionID !== sessionID)),
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

/** One of opencode's commands as a turn: opencode expands its template into the prompt. */
export interface CommandInput {
  sessionID: string
  messageID: string
  skipCheckpoint?: boolean
  command: string
  arguments: string
  model?: ModelRef
  agent?: string
}

/**
 * Runs an opencode command. The server answers only when the turn has ended, so this resolves late;
 * the event stream drives the timeline meanwhile, as for a prompt.
 */
export function useSendCommand() {
  const scope = useScope()
  return useMutation({
    mutationFn: async ({ sessionID, messageID, skipCheckpoint, command, arguments: args, model, agent }: CommandInput) => {
      unwrap(
        'session.command',
        await clientFor(scope.directory).session.command(
          { sessionID, messageID, command, arguments: args, ...(model ? { model: `${model.providerID}/${model.modelID}` } : {}), ...(agent ? { agent } : {}) },
          skipCheckpoint ? { headers: { 'x-retake-checkpoint': 'skip' } } : undefined,
        ),
      )
    },
  })
}

export { isCheckpointFailure } from '../../shared/retake/checkpoint-failure'

type Stopped = { id: string; sessionID: string }

function setStopped(qc: QueryClient, scope: Scope, change: (list: Stopped[]) => Stopped[]) {
  qc.setQueryData<Stopped[]>(queryKeys.stoppedPermissions(scope), (list) => change(list ?? []))
}

/**
 * Stop: the host rejects the permissions the turn waits on before it aborts it
 * (core/turns/permissions-on-stop.ts). Their cards turn into "the turn was stopped" at once, before any
 * answer could be clicked, and stay so (the server's "replied" event would just remove them).
 */
export function useAbort() {
  const scope = useScope()
  const qc = useQueryClient()
  return useMutation({
    onMutate: (sessionID: string) => {
      const waiting = (qc.getQueryData<Stopped[]>(queryKeys.permissions(scope)) ?? []).filter((p) => p.sessionID === sessionID)
      if (waiting.length > 0) setStopped(qc, scope, (list) => [...list.filter((p) => !waiting.some((w) => w.id === p.id)), ...waiting])
    },
    mutationFn: async (sessionID: string) => unwrap('session.abort', await clientFor(scope.directory).session.abort({ sessionID })),
  })
}
