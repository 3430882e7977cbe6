/**
 * The chat panel's ↺: runs the retry flow for a session against the opencode proxy, with the saved
 * payloads and attempt history in Retake's data dir (through the bridge), and keeps React Query in
 * step. The decisions are in retry-flow.ts and retry-target.ts; this hook only wires them.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { getBridge } from '../bridge'
import { clientFor } from '../api/client'
import { queryKeys } from '../api/query-keys'
import { useScope } from '../api/scope'
import type { MessageWithParts } from '../api/types'
import type { ModelRef, SavedRetry } from '../shared/ipc-contract'
import { useRetryStore } from '../state/retry-store'
import { runRetry, type FileChoices, type RetryOutcome, type StoredMessage } from './retry-flow'
import { answersTo, retryTargetFor } from './retry-target'
import { createSdkRetryDeps, type RetryStore } from './sdk-retry-deps'

export const retryKeys = {
  saved: (sessionID: string) => ['host', 'retry.list', sessionID] as const,
  attempts: (sessionID: string) => ['host', 'attempts.list', sessionID] as const,
}

function bridgeStore(directory: string): RetryStore {
  return {
    save: (e) => getBridge().invoke('retry.save', e),
    drop: (sessionID, messageID) => getBridge().invoke('retry.drop', { sessionID, messageID }),
    recordAttempt: (a) => getBridge().invoke('attempts.add', a),
    files: {
      holdKept: async (planId, overwrite, keep = []) => (await getBridge().invoke('checkpoints.holdKept', { directory, planId, overwrite, keep })).holdId,
      putBackKept: (holdId) => getBridge().invoke('checkpoints.putBackKept', { holdId }),
      restoreFiles: (planId, overwrite, keep = []) => getBridge().invoke('checkpoints.apply', { directory, planId, onConflict: 'restore-rest', overwrite, keep }),
      undoFiles: (restoreId) => getBridge().invoke('checkpoints.undo', { directory, restoreId }),
    },
  }
}

/** Retries of this session that did not go through (kept on disk, also across restarts). */
export function useSavedRetries(sessionID: string | undefined) {
  return useQuery({
    queryKey: retryKeys.saved(sessionID ?? ''),
    enabled: !!sessionID,
    queryFn: () => getBridge().invoke('retry.list', { sessionID: sessionID! }),
  })
}

export function useAttempts(sessionID: string | undefined) {
  return useQuery({
    queryKey: retryKeys.attempts(sessionID ?? ''),
    enabled: !!sessionID,
    queryFn: () => getBridge().invoke('attempts.list', { sessionID: sessionID! }),
  })
}

export interface RetakeRequest {
  sessionID: string
  /** The message the ↺ was pressed on (user, assistant, or the assistant of an error block). */
  clickedID: string
  model: ModelRef
  /** The full list of the session's messages (from the cache). */
  messages: MessageWithParts[]
  /** "Send again" of a retry that did not go through. */
  saved?: SavedRetry
  /** Roll the files back too (from the restore sheet). */
  files?: FileChoices
  skipCheckpoint?: boolean
}

export function useRetake() {
  const scope = useScope()
  const qc = useQueryClient()
  const { start, step, finish } = useRetryStore.getState()

  return useCallback(
    async (req: RetakeRequest): Promise<RetryOutcome> => {
      const target = req.saved?.messageID ?? retryTargetFor(req.messages, req.clickedID)
      if (!target) throw new Error('This message has no user turn to retake')
      if (useRetryStore.getState().running[req.sessionID]) throw new Error('A retry is already running in this session')
      const stored = req.messages.find((m) => m.info.id === target)
      const answers = answersTo(req.messages, target)
      const lastAnswer = answers.at(-1)?.info
      const previousModel = lastAnswer && lastAnswer.role === 'assistant' ? { providerID: lastAnswer.providerID, modelID: lastAnswer.modelID } : undefined
      start(req.sessionID, target)
      const started = performance.now()
      try {
        const deps = createSdkRetryDeps(clientFor(scope.directory), bridgeStore(scope.directory), {
          log: (s, ms) => {
            step(req.sessionID, s)
            console.info(`[retry] ${req.sessionID}/${target} ${s} ${ms} ms`)
          },
        })
        return await runRetry(
          {
            sessionID: req.sessionID,
            messageID: target,
            directory: scope.directory,
            message: stored ? (stored as unknown as StoredMessage) : null,
            model: req.model,
            previousAnswers: answers,
            previousModel,
            saved: req.saved,
            files: req.files,
            skipCheckpoint: req.skipCheckpoint,
          },
          deps,
        )
      } finally {
        console.info(`[retry] ${req.sessionID}/${target} finished in ${Math.round(performance.now() - started)} ms`)
        finish(req.sessionID)
        await Promise.all([
          qc.invalidateQueries({ queryKey: queryKeys.messages(scope, req.sessionID) }),
          qc.invalidateQueries({ queryKey: queryKeys.sessions(scope) }),
          qc.invalidateQueries({ queryKey: retryKeys.saved(req.sessionID) }),
          qc.invalidateQueries({ queryKey: retryKeys.attempts(req.sessionID) }),
          qc.invalidateQueries({ queryKey: ['host', 'checkpoints', scope.directory] }),
        ])
      }
    },
    [scope, qc, start, step, finish],
  )
}
