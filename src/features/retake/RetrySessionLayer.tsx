/**
 * Puts ↺ into the open session: provides the retry context and the extra message actions (↺, the
 * attempt switcher, the "did not go through" offer), handles R on a focused message, and reports a
 * retry that could not even start. The timeline itself knows nothing about retries.
 */
import { useCallback, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import type { MessageWithParts } from '../../api/types'
import { modelKey, modelOptions, type ModelOption } from '../models/model-choice'
import type { Attempt, ModelRef, RetakeCompareOutcome, SavedRetry } from '../../../shared/ipc-contract'
import { RetryProvider, type RetryContextValue } from './retry-context'
import { laterTurns, retryTargetFor } from '../../../shared/retry/retry-target'
import { useAttempts, useCompareModels, useContinueAttempt, useRetake, useSavedRetries } from './use-retake'
import { retryKeys } from '../../api/query-keys'
import { useRetryStore } from './retry-store'
import { getBridge } from '../../bridge'
import { useQueryClient } from '@tanstack/react-query'
import type { Provider } from '../../api/types'
import { AttemptSwitcher } from './AttemptSwitcher'
import { CompareRuns } from './CompareRuns'
import { compareColumns } from './compare-columns'
import type { RestoreDecision } from '../checkpoints/RestoreSheet'
import { RestoreSheet } from '../lazy'
import { TurnChanges } from '../checkpoints/TurnChanges'
import { UndoRestoreBar, type LastRestore } from '../checkpoints/UndoRestoreBar'
import { useApplyRestore, useTurnCheckpoints } from '../checkpoints/use-checkpoints'
import { turnsWithFileChanges } from '../checkpoints/checkpoint-logic'
import { FailedRetryNotice } from './FailedRetryNotice'
import { InterruptedSwitchNotice } from './InterruptedSwitchNotice'
import { MessageActionsProvider, type ActionTarget } from '../chat/MessageActions'
import { RetryAction } from './RetryAction'
import { EditAction } from './EditAction'
import { ForkAction } from './ForkAction'
import { toPending, type PendingAttachment } from '../attachments/attachments'
import { composerContentOf } from '../attachments/composer-content'
import '../../styles/retry.css'

export interface RetrySessionLayerProps {
  sessionID: string | undefined
  /** All messages of the session (reverted ones included). */
  messages: MessageWithParts[]
  model: ModelRef | undefined
  providers: Provider[]
  busy: boolean
  /** Changes when the session's status changes (a sealed turn's file changes are then known). */
  statusTick: unknown
  onChooseModel(ref: ModelRef): void
  /** Puts text and attachments back into the composer ("Edit" of a saved retry). */
  onEdit(text: string, attachments: PendingAttachment[]): void
  children: ReactNode
}

function labelOf(options: ModelOption[], ref: ModelRef | undefined): string {
  if (!ref) return 'no model'
  return options.find((o) => o.key === modelKey(ref))?.modelName ?? ref.modelID
}

export function RetrySessionLayer(props: RetrySessionLayerProps) {
  const { sessionID, messages, onEdit } = props
  const retake = useRetake()
  const qc = useQueryClient()
  const saved = useSavedRetries(sessionID)
  const attempts = useAttempts(sessionID)
  const locked = useRetryStore((s) => (sessionID ? s.running[sessionID] !== undefined : false))
  const [startError, setStartError] = useState<string | null>(null)
  const options = useMemo(() => modelOptions(props.providers), [props.providers])
  const checkpoints = useTurnCheckpoints(sessionID, props.statusTick)
  const applyRestore = useApplyRestore()
  const [sheet, setSheet] = useState<{ clickedID: string; target: string; model: ModelRef; edit?: string; compare?: ModelRef[] } | null>(null)
  const compareModels = useCompareModels()
  const [comparison, setComparison] = useState<{ messageID: string; runs: RetakeCompareOutcome['runs'] } | null>(null)
  const [lastRestore, setLastRestore] = useState<LastRestore | null>(null)
  const continueAttempt = useContinueAttempt()
  const [switching, setSwitching] = useState<Attempt | null>(null)
  const [switchNote, setSwitchNote] = useState<{ ok: boolean; text: string } | null>(null)
  // Read through a ref so the context (and every message's actions) does not change per delta.
  const messagesRef = useRef(messages)
  messagesRef.current = messages

  const ctx: RetryContextValue | null = useMemo(() => {
    if (!sessionID) return null
    return {
      sessionID,
      getMessages: () => messagesRef.current,
      model: props.model,
      modelLabel: labelOf(options, props.model),
      options,
      busy: props.busy,
      locked,
      chooseModel: props.onChooseModel,
      changedFiles: (userMessageID) => {
        const userIDs = messagesRef.current.filter((m) => m.info.role === 'user').map((m) => m.info.id)
        return turnsWithFileChanges(userIDs, userMessageID, checkpoints.data ?? []).length > 0
      },
      openRestoreSheet(clickedID, model, edit, compare) {
        const target = retryTargetFor(messagesRef.current, clickedID)
        if (target) setSheet({ clickedID, target, model, ...(edit !== undefined ? { edit } : {}), ...(compare ? { compare } : {}) })
      },
      async compare(clickedID, models, files) {
        setStartError(null)
        const target = retryTargetFor(messagesRef.current, clickedID)
        if (!target) return
        try {
          const out = await compareModels({ sessionID, clickedID, messageID: target, models, files })
          const failed = out.runs.find((r) => r.outcome.status === 'failed')?.outcome
          if (failed?.status === 'failed' && !failed.saved) setStartError(failed.error)
          if (out.runs.length > 1) setComparison({ messageID: target, runs: out.runs })
        } catch (err) {
          setStartError((err as Error).message)
        }
      },
      async retake(clickedID, model, savedEntry, files, opts) {
        setStartError(null)
        try {
          const out = await retake({ sessionID, clickedID, model, messages: messagesRef.current, saved: savedEntry, files, skipCheckpoint: opts?.skipCheckpoint, edit: opts?.edit })
          if (out.status === 'done' && out.restore?.restoreId) setLastRestore({ restoreId: out.restore.restoreId, result: out.restore })
          // A failure after the payload was saved is offered again by FailedRetryNotice; only a
          // retry that could not even start needs a message of its own.
          if (out.status === 'failed' && !out.saved) setStartError(out.error)
        } catch (err) {
          setStartError((err as Error).message)
        }
      },
      editSaved(entry: SavedRetry) {
        // Typed text goes back into the composer, attachments back into its chips (not as raw blocks).
        const { text, files } = composerContentOf(entry.parts)
        onEdit(
          text,
          files.map((f) => toPending(f)),
        )
      },
      discardSaved(entry: SavedRetry) {
        void getBridge()
          .invoke('retry.drop', { sessionID: entry.sessionID, messageID: entry.messageID })
          .then(() => qc.invalidateQueries({ queryKey: retryKeys.saved(entry.sessionID) }))
      },
    }
  }, [sessionID, props.model, props.busy, props.onChooseModel, onEdit, options, locked, retake, compareModels, qc, checkpoints.data])

  const running = useRetryStore((s) => (sessionID ? s.running[sessionID] : undefined))
  const failed = useMemo(() => (saved.data ?? []).filter((r) => !(running && running.messageID === r.messageID)), [saved.data, running])
  const present = new Set(messages.map((m) => m.info.id))
  const orphans = failed.filter((r) => !present.has(r.messageID))

  const extra = useCallback(
    (message: MessageWithParts) =>
      ctx ? (
        <>
          {message.info.role === 'user' && <EditAction message={message} />}
          <RetryAction message={message} />
          <ForkAction message={message} />
        </>
      ) : null,
    [ctx],
  )
  const below = useCallback(
    (message: MessageWithParts, target: ActionTarget) => {
      if (!ctx || target !== 'user') return null
      const list = attempts.data?.filter((a) => a.messageID === message.info.id) ?? []
      const notice = failed.find((r) => r.messageID === message.info.id)
      const turn = checkpoints.data?.find((t) => t.messageID === message.info.id)
      if (!list.length && !notice && !turn?.changes.length) return null
      return (
        <div className="message-below">
          {turn && <TurnChanges sessionID={ctx.sessionID} turn={turn} />}
          {list.length > 0 && <AttemptSwitcher key={list.map((a) => a.at).join()} attempts={list} current={message} locked={ctx.locked} onContinue={(a) => setSwitching(a)} />}
          {notice && <FailedRetryNotice saved={notice} />}
        </div>
      )
    },
    [ctx, attempts.data, failed, checkpoints.data],
  )

  /** d: the sheet's decision; none when finishing a cut-off switch (its files are done). */
  const runContinue = async (a: Attempt, d?: RestoreDecision) => {
    setSwitchNote(null)
    // The last retake's "Undo restore" no longer applies: its restore is what this switch undoes.
    setLastRestore(null)
    try {
      const files = !d || d.mode === 'conversation' ? undefined : { planId: d.planId, overwrite: d.overwrite, keep: d.keep }
      const out = await continueAttempt({ sessionID: a.sessionID, messageID: a.messageID, at: a.at, files, leaveFiles: d?.mode === 'conversation' })
      if (out.status === 'failed') setSwitchNote({ ok: false, text: `Could not continue from that attempt: ${out.error}` })
      else {
        const skipped = [...(out.rollback?.skipped ?? []), ...(out.filesBack?.skipped ?? [])].length
        const kept = skipped > 0 ? ` ${skipped} file${skipped === 1 ? '' : 's'} you changed were left as they are.` : ''
        setSwitchNote({ ok: true, text: `Continued from the earlier attempt. The answers you left are kept as an attempt: ‹ › to go back.${kept}` })
      }
    } catch (err) {
      setSwitchNote({ ok: false, text: `Could not continue from that attempt: ${(err as Error).message}` })
    }
  }

  // R on a focused message opens the retake sheet with the model chosen now — whatever the turn
  // changed, R never acts without asking: the sheet says what goes (files, later turns) first.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!ctx || e.key.toLowerCase() !== 'r' || e.metaKey || e.ctrlKey || e.altKey) return
    const el = e.target as HTMLElement
    if (el.getAttribute('data-testid') !== 'message') return
    const id = el.getAttribute('data-message-id')
    if (!id || !ctx.model || ctx.locked || !retryTargetFor(messages, id)) return
    e.preventDefault()
    ctx.openRestoreSheet(id, ctx.model)
  }

  return (
    <RetryProvider value={ctx!}>
      <MessageActionsProvider render={extra} below={below}>
        <div className="retry-layer" onKeyDown={onKeyDown}>
          {startError && (
            <div className="inline-error" role="alert" data-testid="retry-error">
              Retry did not start: {startError}
              <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setStartError(null)}>
                ×
              </button>
            </div>
          )}
          {switchNote && (
            <div className={switchNote.ok ? 'inline-note' : 'inline-error'} role={switchNote.ok ? 'status' : 'alert'} data-testid="continue-note">
              {switchNote.text}
              <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setSwitchNote(null)}>
                ×
              </button>
            </div>
          )}
          <InterruptedSwitchNotice attempts={attempts.data ?? []} locked={locked} onFinish={(a) => void runContinue(a)} />
          {comparison && (
            <CompareRuns
              columns={compareColumns(comparison, { attempts: attempts.data ?? [], messages, checkpoints: checkpoints.data ?? [], labelOf: (m) => labelOf(options, m) })}
              onClose={() => setComparison(null)}
              onKeep={(a) => {
                setComparison(null)
                setSwitching(a)
              }}
            />
          )}
          {switching && ctx && (
            <RestoreSheet
              purpose="continue"
              sessionID={ctx.sessionID}
              messageID={switching.messageID}
              modelLabel=""
              laterTurns={laterTurns(messages, switching.messageID)}
              onCancel={() => setSwitching(null)}
              onConfirm={(d: RestoreDecision) => {
                const a = switching
                setSwitching(null)
                void runContinue(a, d)
              }}
            />
          )}
          {lastRestore && sessionID && <UndoRestoreBar restore={lastRestore} onDone={() => setLastRestore(null)} />}
          {props.children}
          {sheet && ctx && (
            <RestoreSheet
              sessionID={ctx.sessionID}
              messageID={sheet.target}
              modelLabel={labelOf(options, sheet.model)}
              laterTurns={laterTurns(messages, sheet.target)}
              onCancel={() => setSheet(null)}
              onConfirm={(d: RestoreDecision) => {
                const s0 = sheet
                setSheet(null)
                const edit = s0.edit !== undefined ? { edit: s0.edit } : undefined
                if (s0.compare && d.mode !== 'files')
                  void ctx.compare(s0.clickedID, s0.compare, d.mode === 'both' ? { planId: d.planId, overwrite: d.overwrite, keep: d.keep } : undefined)
                else if (d.mode === 'conversation') void ctx.retake(s0.clickedID, s0.model, undefined, undefined, edit)
                else if (d.mode === 'both') void ctx.retake(s0.clickedID, s0.model, undefined, { planId: d.planId, overwrite: d.overwrite, keep: d.keep }, edit)
                else
                  applyRestore.mutate(
                    { planId: d.planId, overwrite: d.overwrite, keep: d.keep },
                    {
                      onSuccess: (r) => r.restoreId && setLastRestore({ restoreId: r.restoreId, result: r }),
                      onError: (err) => setStartError(`the files could not be restored: ${(err as Error).message}`),
                    },
                  )
              }}
            />
          )}
          {orphans.map((r) => (
            <FailedRetryNotice key={r.messageID} saved={r} />
          ))}
        </div>
      </MessageActionsProvider>
    </RetryProvider>
  )
}
