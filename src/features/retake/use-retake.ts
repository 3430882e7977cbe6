/**
 * The chat panel's ↺: asks the host to run the retake (one journaled transaction there: the payload
 * saved, the files restored, the conversation reverted and prompted again — see
 * core/retake/retake-host.ts), shows the step it reports, and keeps React Query in step. A
 * window closed or reloaded mid-retake no longer leaves it half done: the host finishes it.
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { getBridge } from '../../bridge'
import { queryKeys, type Scope } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import type { MessageWithParts } from '../../api/types'
import type { AttemptContinueOutcome, FileChoices, ModelRef, RetakeCompareOutcome, RetakeOutcome, SavedRetake } from '../../../shared/ipc-contract'
import { useRetakeStore } from './retake-store'
import { retakeTargetFor } from '../../../shared/retake/retake-target'

import { checkpointKeys, retakeKeys } from '../../api/query-keys'

/** Retakes of this session that did not go through (kept on disk, also across restarts). */
export function useSavedRetakes(sessionID: string | undefined) {
  return useQuery({
    queryKey: retakeKeys.saved(sessionID ?? ''),
    enabled: !!sessionID,
    queryFn: () => getBridge().invoke('savedRetakes.list', { sessionID: sessionID! }),
  })
}

/** What a retake, a switch or a compare may have changed: read again. */
function refreshAfterRetake(qc: QueryClient, scope: Scope, sessionID: string) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: queryKeys.messages(scope, sessionID) }),
    qc.invalidateQueries({ queryKey: queryKeys.sessions(scope) }),
    qc.invalidateQueries({ queryKey: retakeKeys.saved(sessionID) }),
    qc.invalidateQueries({ queryKey: retakeKeys.attempts(sessionID) }),
    qc.invalidateQueries({ queryKey: checkpointKeys.all(scope.directory) }),
  ])
}

export function useAttempts(sessionID: string | undefined) {
  return useQuery({
    queryKey: retakeKeys.attempts(sessionID ?? ''),
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
  /** "Send again" of a retake that did not go through. */
  saved?: SavedRetake
  /** Roll the files back too (from the restore sheet). */
  files?: FileChoices
  skipCheckpoint?: boolean
  /** "Edit and retake": the new typed text (attachments stay). */
  edit?: string
  /** /rewind: stop once back before the turn; the outcome's draft is the turn to edit. */
  rewind?: boolean
}

export function useRetake() {
  const scope = useScope()
  const qc = useQueryClient()
  const { start, step, finish } = useRetakeStore.getState()

  return useCallback(
    async (req: RetakeRequest): Promise<RetakeOutcome> => {
      const target = req.saved?.messageID ?? retakeTargetFor(req.messages, req.clickedID)
      if (!target) throw new Error('This message has no user turn to retake')
      if (useRetakeStore.getState().running[req.sessionID]) throw new Error('A retake is already running in this session')
      start(req.sessionID, target)
      const started = performance.now()
      const bridge = getBridge()
      const off = bridge.on('retake.progress', (p) => {
        if (p.sessionID === req.sessionID && p.messageID === target) step(req.sessionID, p.step)
      })
      try {
        return await bridge.invoke('retake.run', {
          directory: scope.directory,
          sessionID: req.sessionID,
          clickedID: req.saved?.messageID ?? req.clickedID,
          model: req.model,
          fromSaved: Boolean(req.saved),
          ...(req.files ? { files: req.files } : {}),
          skipCheckpoint: Boolean(req.skipCheckpoint),
          ...(req.edit !== undefined ? { edit: { text: req.edit } } : {}),
          rewind: Boolean(req.rewind),
        })
      } finally {
        off()
        console.info(`[retake] ${req.sessionID}/${target} finished in ${Math.round(performance.now() - started)} ms`)
        finish(req.sessionID)
        await refreshAfterRetake(qc, scope, req.sessionID)
      }
    },
    [scope, qc, start, step, finish],
  )
}

/**
 * "Continue from this attempt": the host makes a kept attempt the current branch again
 * (core/retake/continue-attempt.ts); the conversation, the attempts and the checkpoints are
 * read again afterwards, as after a retake.
 */
export function useContinueAttempt() {
  const scope = useScope()
  const qc = useQueryClient()
  const { start, finish } = useRetakeStore.getState()
  return useCallback(
    async (req: { sessionID: string; messageID: string; at: number; files?: FileChoices; leaveFiles?: boolean }): Promise<AttemptContinueOutcome> => {
      if (useRetakeStore.getState().running[req.sessionID]) throw new Error('A retake is already running in this session')
      start(req.sessionID, req.messageID)
      try {
        return await getBridge().invoke('attempts.continue', {
          directory: scope.directory,
          sessionID: req.sessionID,
          messageID: req.messageID,
          at: req.at,
          ...(req.files ? { files: { planId: req.files.planId, overwrite: req.files.overwrite, keep: req.files.keep ?? [] } } : {}),
          ...(req.leaveFiles ? { leaveFiles: true } : {}),
        })
      } finally {
        finish(req.sessionID)
        await refreshAfterRetake(qc, scope, req.sessionID)
      }
    },
    [scope, qc, start, finish],
  )
}

/** "Retake with several models": the host runs the turn on each (retake-host.ts `compare`). */
export function useCompareModels() {
  const scope = useScope()
  const qc = useQueryClient()
  const { start, step, finish } = useRetakeStore.getState()
  return useCallback(
    async (req: { sessionID: string; clickedID: string; messageID: string; models: ModelRef[]; files?: FileChoices; edit?: string }): Promise<RetakeCompareOutcome> => {
      if (useRetakeStore.getState().running[req.sessionID]) throw new Error('A retake is already running in this session')
      start(req.sessionID, req.messageID)
      const bridge = getBridge()
      const off = bridge.on('retake.progress', (p) => {
        if (p.sessionID === req.sessionID && p.messageID === req.messageID) step(req.sessionID, p.step)
      })
      try {
        return await bridge.invoke('retake.compare', {
          directory: scope.directory,
          sessionID: req.sessionID,
          clickedID: req.clickedID,
          models: req.models,
          skipCheckpoint: false,
          ...(req.files ? { files: { planId: req.files.planId, overwrite: req.files.overwrite, keep: req.files.keep ?? [] } } : {}),
          ...(req.edit !== undefined ? { edit: { text: req.edit } } : {}),
        })
      } finally {
        off()
        finish(req.sessionID)
        await refreshAfterRetake(qc, scope, req.sessionID)
      }
    },
    [scope, qc, start, step, finish],
  )
}
