/** Sending a prompt and stopping a turn: the chat's and the palette's, so not part of the first load (mutations.ts is). */
import { useMutation } from '@tanstack/react-query'
import type { ModelRef, PartInput } from '../../shared/ipc-contract'
import { unwrap } from '../../shared/unwrap'
import { clientFor } from './client'
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
