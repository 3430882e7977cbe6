/**
 * The retake flow's I/O: opencode calls through the v2 SDK (each result through unwrap) and Retake's
 * own store for saved payloads and attempts. Thin on purpose; the decisions are in retake-flow.ts.
 */
import type { OpencodeClient } from '@opencode-ai/sdk/v2/client'
import type { Attempt, RetakeStep, SavedRetake } from '../../shared/ipc-contract'
import { unwrap } from '../../shared/unwrap'
import type { PromptResult, RetakeDeps } from './retake-flow'

export interface RetakeStore {
  save(entry: SavedRetake): Promise<unknown>
  drop(sessionID: string, messageID: string): Promise<unknown>
  recordAttempt(attempt: Attempt): Promise<unknown>
  forgetAttempt?(sessionID: string, messageID: string, at: number): Promise<unknown>
  /** File rollback through the host's checkpoints (absent where there are none). */
  files?: Pick<RetakeDeps, 'holdKept' | 'putBackKept' | 'restoreFiles' | 'undoFiles'>
}

export interface SdkRetakeOptions {
  /** How long an aborted turn may take to settle before the retake gives up. */
  idleTimeoutMs?: number
  log?: (step: RetakeStep, ms: number) => void
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))

export function createSdkRetakeDeps(client: OpencodeClient, store: RetakeStore, opts: SdkRetakeOptions = {}): RetakeDeps {
  const isBusy = async (sessionID: string) => {
    const map = unwrap('session.status', await client.session.status()) as Record<string, { type: string }>
    const status = map[sessionID]
    return status !== undefined && status.type !== 'idle'
  }
  return {
    save: async (e) => void (await store.save(e)),
    drop: async (s, m) => void (await store.drop(s, m)),
    recordAttempt: async (a) => void (await store.recordAttempt(a)),
    ...(store.forgetAttempt ? { forgetAttempt: async (s: string, m: string, at: number) => void (await store.forgetAttempt!(s, m, at)) } : {}),
    isBusy,
    async abortAndWaitIdle(sessionID) {
      unwrap('session.abort', await client.session.abort({ sessionID }))
      const deadline = Date.now() + (opts.idleTimeoutMs ?? 15_000)
      // The abort answers at once; the session turns idle a moment later, and revert refuses (409) until then.
      while (await isBusy(sessionID)) {
        if (Date.now() > deadline) throw new Error('the session did not stop after abort')
        await wait(100)
      }
    },
    async getMessage(sessionID, messageID) {
      const r = await client.session.message({ sessionID, messageID })
      if (r.response?.status === 404) return null
      const data = unwrap('session.message', r) as { parts: { id: string }[] }
      return { parts: data.parts }
    },
    async revert(sessionID, messageID) {
      return unwrap('session.revert', await client.session.revert({ sessionID, messageID })) as { revert?: { messageID?: string } }
    },
    async deletePart(sessionID, messageID, partID) {
      return unwrap('part.delete', await client.part.delete({ sessionID, messageID, partID }))
    },
    async prompt(body, promptOpts) {
      // PartInput's `source` is validated as unknown by the IPC schema; it is the SDK's FilePartSource as stored.
      type SdkPromptBody = Parameters<OpencodeClient['session']['prompt']>[0]
      const headers = promptOpts?.skipCheckpoint ? { headers: { 'x-retake-checkpoint': 'skip' } } : undefined
      return unwrap('session.prompt', await client.session.prompt(body as SdkPromptBody, headers)) as unknown as PromptResult
    },
    ...(store.files ?? {}),
    now: () => Date.now(),
    onStep: opts.log,
  }
}
