/**
 * What RetakeSessionLayer holds: the retake context of the open session and what the layer shows
 * besides the timeline (the open sheet, a comparison, the note on a restore just made, a retake
 * that did not start, a continued attempt's note). The restore itself is the host's record (the
 * last-restore query), not held here.
 */
import { useCallback, useMemo, useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import type { MessageWithParts, Provider } from '../../api/types'
import type { Attempt, ModelRef } from '../../../shared/ipc-contract'
import { modelOptions } from '../models'
import { type RestoreDecision, restoreNoteText, type RestoreCounts, type RestoreNote, useApplyRestore, useTurnCheckpoints } from '../checkpoints'
import type { PendingAttachment } from '../attachments'
import type { RetakeContextValue } from './retake-context'
import { fileChoicesOf, retakeContextOf, type Comparison, type RetakeSheetRequest } from './retake-context-value'
import { useRetakeStore } from './retake-store'
import { useAttempts, useCompareModels, useContinueAttempt, useRetake, useSavedRetakes } from './use-retake'
import { errorMessage } from '../../../shared/unwrap'

export interface RetakeSessionInput {
  sessionID: string | undefined
  /** All messages of the session (reverted ones included). */
  messages: MessageWithParts[]
  model: ModelRef | undefined
  providers: Provider[]
  busy: boolean
  /** Changes when the session's status changes (a sealed turn's file changes are then known). */
  statusTick: unknown
  onChooseModel(ref: ModelRef): void
  /** Puts text and attachments back into the composer ("Edit" of a saved retake). */
  onEdit(text: string, attachments: PendingAttachment[]): void
}

export function useRetakeSession(props: RetakeSessionInput) {
  const { sessionID, messages, onEdit } = props
  const retake = useRetake()
  const qc = useQueryClient()
  const saved = useSavedRetakes(sessionID)
  const attempts = useAttempts(sessionID)
  const locked = useRetakeStore((s) => (sessionID ? s.running[sessionID] !== undefined : false))
  const [startError, setStartError] = useState<string | null>(null)
  const options = useMemo(() => modelOptions(props.providers), [props.providers])
  const checkpoints = useTurnCheckpoints(sessionID, props.statusTick)
  const applyRestore = useApplyRestore()
  const [sheet, setSheet] = useState<RetakeSheetRequest | null>(null)
  const compareModels = useCompareModels()
  const [comparison, setComparison] = useState<Comparison | null>(null)
  // The Undo bar's note on a restore made from here; its undo reads the host's last restore.
  const [restoreNote, setRestoreNote] = useState<RestoreNote | null>(null)
  const noteRestore = useCallback((r: RestoreCounts) => setRestoreNote((n) => ({ text: restoreNoteText(r), seq: (n?.seq ?? 0) + 1 })), [])
  // Read through a ref so the context (and every message's actions) does not change per delta.
  const messagesRef = useRef(messages)
  messagesRef.current = messages

  const ctx: RetakeContextValue | null = useMemo(() => {
    if (!sessionID) return null
    return retakeContextOf(
      { sessionID, messagesRef, model: props.model, busy: props.busy, locked, options, checkpoints: checkpoints.data, chooseModel: props.onChooseModel, onEdit },
      { retake, compareModels, qc },
      { setStartError, setSheet, setComparison, noteRestore },
    )
  }, [sessionID, props.model, props.busy, props.onChooseModel, onEdit, options, locked, retake, compareModels, qc, checkpoints.data, noteRestore])

  const running = useRetakeStore((s) => (sessionID ? s.running[sessionID] : undefined))
  const failed = useMemo(() => (saved.data ?? []).filter((r) => !(running && running.messageID === r.messageID)), [saved.data, running])
  const present = new Set(messages.map((m) => m.info.id))
  const orphans = failed.filter((r) => !present.has(r.messageID))

  return {
    ctx,
    locked,
    options,
    attempts,
    checkpoints,
    failed,
    orphans,
    applyRestore,
    startError,
    setStartError,
    sheet,
    setSheet,
    comparison,
    setComparison,
    restoreNote,
    setRestoreNote,
    noteRestore,
  }
}

/** How continuing from an attempt went, said above the timeline. */
export interface SwitchNote {
  ok: boolean
  text: string
  /** The branch just left, kept as an attempt: Undo switches back to it (through the same sheet). */
  back?: Attempt
}

/**
 * What the note after a switch says. A file kept as it is was changed since the turn — by the user
 * or by another session or program: Retake cannot tell who, so the note does not say "you".
 */
export function continuedText(skipped: number): string {
  const kept = skipped === 0 ? '' : ` ${skipped} file${skipped === 1 ? '' : 's'} changed since ${skipped === 1 ? 'was' : 'were'} left as ${skipped === 1 ? 'it is' : 'they are'}.`
  return `Continued from the earlier attempt. The answers you left are kept as an attempt: ‹ › to go back.${kept}`
}

/**
 * "Continue from this attempt": the attempt whose restore sheet is open, the note on how it went,
 * and the run itself (also finishing a switch that was cut off).
 */
export function useContinueSwitch(setRestoreNote: (note: RestoreNote | null) => void) {
  const continueAttempt = useContinueAttempt()
  const [switching, setSwitching] = useState<Attempt | null>(null)
  const [switchNote, setSwitchNote] = useState<SwitchNote | null>(null)

  /** d: the sheet's decision; none when finishing a cut-off switch (its files are done). True once continued. */
  const runContinue = async (a: Attempt, d?: RestoreDecision): Promise<boolean> => {
    setSwitchNote(null)
    // The last retake's "Undo restore" no longer applies: its restore is what this switch undoes.
    setRestoreNote(null)
    try {
      const files = !d || d.mode === 'conversation' ? undefined : fileChoicesOf(d)
      const out = await continueAttempt({ sessionID: a.sessionID, messageID: a.messageID, at: a.at, files, leaveFiles: d?.mode === 'conversation' })
      if (out.status === 'failed') {
        setSwitchNote({ ok: false, text: `Could not continue from that attempt: ${out.error}` })
        return false
      }
      {
        const skipped = [...(out.rollback?.skipped ?? []), ...(out.filesBack?.skipped ?? [])].length
        // Only the ids are needed to switch back: the host reads the kept attempt itself.
        const back = out.kept !== null ? { sessionID: a.sessionID, messageID: a.messageID, at: out.kept, messages: [] } : undefined
        setSwitchNote({ ok: true, text: continuedText(skipped), ...(back ? { back } : {}) })
      }
      return true
    } catch (err) {
      setSwitchNote({ ok: false, text: `Could not continue from that attempt: ${errorMessage(err)}` })
      return false
    }
  }

  return { switching, setSwitching, switchNote, setSwitchNote, runContinue }
}

/** What the retake sheet's decision starts: a rewind, a comparison, a retake (with or without the files), or the files only. */
export function runSheetDecision(
  request: RetakeSheetRequest,
  d: RestoreDecision,
  ctx: RetakeContextValue,
  applyRestore: ReturnType<typeof useApplyRestore>,
  report: { noteRestore(result: RestoreCounts): void; setStartError(error: string): void },
) {
  const edit = request.edit !== undefined ? { edit: request.edit } : undefined
  if (request.rewind) void ctx.rewind(request.clickedID, request.model, d.mode === 'both' ? fileChoicesOf(d) : undefined)
  else if (request.compare && d.mode !== 'files') void ctx.compare(request.clickedID, request.compare, d.mode === 'both' ? fileChoicesOf(d) : undefined)
  else if (d.mode === 'conversation') void ctx.retake(request.clickedID, request.model, undefined, undefined, edit)
  else if (d.mode === 'both') void ctx.retake(request.clickedID, request.model, undefined, fileChoicesOf(d), edit)
  else
    applyRestore.mutate(fileChoicesOf(d), {
      onSuccess: (r) => r.restoreId && report.noteRestore(r),
      onError: (err) => report.setStartError(`the files could not be restored: ${errorMessage(err)}`),
    })
}
