/**
 * The retake context RetakeSessionLayer provides, built from what the layer holds: each of its
 * actions is a function here so the layer's memo only says when the value changes.
 */
import type { QueryClient } from '@tanstack/react-query'
import type { MessageWithParts } from '../../api/types'
import { retakeKeys } from '../../api/query-keys'
import { getBridge } from '../../bridge'
import type { FileChoices, ModelRef, RetakeCompareOutcome, SavedRetake, TurnCheckpoint } from '../../../shared/ipc-contract'
import { retakeTargetFor } from '../../../shared/retake/retake-target'
import { modelKey, type ModelOption } from '../models'
import { type RestoreDecision, turnsWithFileChanges, type RestoreCounts } from '../checkpoints'
import { toPending, type PendingAttachment, composerContentOf } from '../attachments'
import type { RetakeContextValue } from './retake-context'
import type { useCompareModels, useRetake } from './use-retake'
import { errorMessage } from '../../../shared/unwrap'

/** A ↺ that asked first: the restore sheet is open for `target`, the user turn `clickedID` belongs to. */
export interface RetakeSheetRequest {
  clickedID: string
  target: string
  model: ModelRef
  edit?: string
  compare?: ModelRef[]
  /** /rewind: the sheet goes back to before the turn and sends nothing. */
  rewind?: boolean
}

/** The runs of "Retake with several models", shown side by side. */
export interface Comparison {
  messageID: string
  runs: RetakeCompareOutcome['runs']
}

export function labelOf(options: ModelOption[], ref: ModelRef | undefined): string {
  if (!ref) return 'no model'
  return options.find((o) => o.key === modelKey(ref))?.modelName ?? ref.modelID
}

/** The files part of a sheet's decision, as the host takes it. */
export function fileChoicesOf(d: RestoreDecision): FileChoices {
  return { planId: d.planId, overwrite: d.overwrite, keep: d.keep }
}

/** What the context reads: the session's state now. */
export interface RetakeSessionState {
  sessionID: string
  /** Read through a ref so the context (and every message's actions) does not change per delta. */
  messagesRef: { readonly current: MessageWithParts[] }
  model: ModelRef | undefined
  busy: boolean
  locked: boolean
  options: ModelOption[]
  checkpoints: TurnCheckpoint[] | undefined
  chooseModel(ref: ModelRef): void
  onEdit(text: string, attachments: PendingAttachment[]): void
}

/** What the context's actions run. */
export interface RetakeCalls {
  retake: ReturnType<typeof useRetake>
  compareModels: ReturnType<typeof useCompareModels>
  qc: QueryClient
}

/** Where the context's actions report back to the layer. */
export interface RetakeReports {
  setStartError(error: string | null): void
  setSheet(sheet: RetakeSheetRequest): void
  setComparison(comparison: Comparison): void
  /** A retake restored files: the Undo bar says what (the restore itself is the host's last restore). */
  noteRestore(result: RestoreCounts): void
}

type RetakeContextSources = RetakeSessionState & RetakeCalls & RetakeReports

export function retakeContextOf(state: RetakeSessionState, calls: RetakeCalls, reports: RetakeReports): RetakeContextValue {
  const s: RetakeContextSources = { ...state, ...calls, ...reports }
  return {
    sessionID: s.sessionID,
    getMessages: () => s.messagesRef.current,
    model: s.model,
    modelLabel: labelOf(s.options, s.model),
    options: s.options,
    busy: s.busy,
    locked: s.locked,
    chooseModel: s.chooseModel,
    changedFiles: (userMessageID) => {
      const userIDs = s.messagesRef.current.filter((m) => m.info.role === 'user').map((m) => m.info.id)
      return turnsWithFileChanges(userIDs, userMessageID, s.checkpoints ?? []).length > 0
    },
    openRestoreSheet(clickedID, model, edit, compare) {
      const target = retakeTargetFor(s.messagesRef.current, clickedID)
      if (target) s.setSheet({ clickedID, target, model, ...(edit !== undefined ? { edit } : {}), ...(compare ? { compare } : {}) })
    },
    openRewindSheet(clickedID, model) {
      const target = retakeTargetFor(s.messagesRef.current, clickedID)
      if (target) s.setSheet({ clickedID, target, model, rewind: true })
    },
    compare: compareOf(s),
    retake: retakeOf(s),
    rewind: rewindOf(s),
    ...savedRetakeActions(s),
  }
}

function compareOf(s: RetakeContextSources): RetakeContextValue['compare'] {
  return async (clickedID, models, files) => {
    s.setStartError(null)
    const target = retakeTargetFor(s.messagesRef.current, clickedID)
    if (!target) return
    try {
      const out = await s.compareModels({ sessionID: s.sessionID, clickedID, messageID: target, models, files })
      const failed = out.runs.find((r) => r.outcome.status === 'failed')?.outcome
      if (failed?.status === 'failed' && !failed.saved) s.setStartError(failed.error)
      if (out.runs.length > 1) s.setComparison({ messageID: target, runs: out.runs })
    } catch (err) {
      s.setStartError(errorMessage(err))
    }
  }
}

function retakeOf(s: RetakeContextSources): RetakeContextValue['retake'] {
  return async (clickedID, model, savedEntry, files, opts) => {
    s.setStartError(null)
    // The retake is confirmed now (this is where every path to it arrives): the model it runs with
    // becomes the session's, so the next ordinary prompt goes to it too.
    if (!s.model || modelKey(s.model) !== modelKey(model)) s.chooseModel(model)
    try {
      const out = await s.retake({
        sessionID: s.sessionID,
        clickedID,
        model,
        messages: s.messagesRef.current,
        saved: savedEntry,
        files,
        skipCheckpoint: opts?.skipCheckpoint,
        edit: opts?.edit,
      })
      if (out.status === 'done' && out.restore?.restoreId) s.noteRestore(out.restore)
      // A failure after the payload was saved is offered again by FailedRetakeNotice; only a
      // retake that could not even start needs a message of its own.
      if (out.status === 'failed' && !out.saved) s.setStartError(out.error)
    } catch (err) {
      s.setStartError(errorMessage(err))
    }
  }
}

function rewindOf(s: RetakeContextSources): RetakeContextValue['rewind'] {
  return async (clickedID, model, files) => {
    s.setStartError(null)
    try {
      const out = await s.retake({ sessionID: s.sessionID, clickedID, model, messages: s.messagesRef.current, files, rewind: true })
      if (out.status === 'failed') {
        // A failure after the payload was saved is offered again by FailedRetakeNotice (Edit keeps the text).
        if (!out.saved) s.setStartError(out.error)
        return
      }
      if (out.restore?.restoreId) s.noteRestore(out.restore)
      // The turn's text back in the composer, its attachments back as chips (not as raw blocks).
      const { text, files: attached } = composerContentOf(out.draft ?? [])
      s.onEdit(
        text,
        attached.map((f) => toPending(f)),
      )
    } catch (err) {
      s.setStartError(errorMessage(err))
    }
  }
}

function savedRetakeActions(s: RetakeContextSources): Pick<RetakeContextValue, 'editSaved' | 'discardSaved'> {
  return {
    editSaved(entry: SavedRetake) {
      // Typed text goes back into the composer, attachments back into its chips (not as raw blocks).
      const { text, files } = composerContentOf(entry.parts)
      s.onEdit(
        text,
        files.map((f) => toPending(f)),
      )
    },
    discardSaved(entry: SavedRetake) {
      void getBridge()
        .invoke('savedRetakes.drop', { sessionID: entry.sessionID, messageID: entry.messageID })
        .then(() => s.qc.invalidateQueries({ queryKey: retakeKeys.saved(entry.sessionID) }))
    },
  }
}
