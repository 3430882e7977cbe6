/**
 * Puts ↺ into the open session: provides the retake context and the extra message actions (↺, the
 * attempt switcher, the "did not go through" offer), handles R on a focused message, and reports a
 * retake that could not even start. The timeline itself knows nothing about retakes.
 */
import { useState, type KeyboardEvent, type ReactNode } from 'react'
import type { MessageWithParts } from '../../api/types'
import type { Attempt, ModelRef } from '../../../shared/ipc-contract'
import { RetakeProvider, type RetakeContextValue } from './retake-context'
import { laterTurns, retakeTargetFor } from '../../../shared/retake/retake-target'
import { CompareRuns } from './CompareRuns'
import { compareColumns } from './compare-columns'
import { type RestoreDecision, UndoRestoreBar } from '../checkpoints'
import { RestoreSheet } from './lazy'
import { FailedRetakeNotice } from './FailedRetakeNotice'
import { InterruptedSwitchNotice } from './InterruptedSwitchNotice'
import { MessageActionsProvider } from '../../ui/MessageActions'
import { labelOf } from './retake-context-value'
import { runSheetDecision, useContinueSwitch, useRetakeSession, type RetakeSessionInput, type SwitchNote } from './use-retake-session'
import { useRetakeMessageActions } from './use-retake-message-actions'
import { useKeepRun } from './use-keep-run'
import '../../styles/retake.css'

export interface RetakeSessionLayerProps extends RetakeSessionInput {
  children: ReactNode
}

// R on a focused message opens the retake sheet with the model chosen now — whatever the turn
// changed, R never acts without asking: the sheet says what goes (files, later turns) first.
function openSheetOnR(e: KeyboardEvent<HTMLDivElement>, ctx: RetakeContextValue | null, messages: MessageWithParts[]) {
  if (!ctx || e.key.toLowerCase() !== 'r' || e.metaKey || e.ctrlKey || e.altKey) return
  const el = e.target as HTMLElement
  if (el.getAttribute('data-testid') !== 'message') return
  const id = el.getAttribute('data-message-id')
  if (!id || !ctx.model || ctx.locked || !retakeTargetFor(messages, id)) return
  e.preventDefault()
  ctx.openRestoreSheet(id, ctx.model)
}

/** A notice of the layer with its × (the retake that did not start, the continued attempt). */
function DismissibleNote(props: { className: string; role: 'alert' | 'status'; testID: string; onDismiss(): void; children: ReactNode }) {
  return (
    <div className={props.className} role={props.role} data-testid={props.testID}>
      {props.children}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={props.onDismiss}>
        ×
      </button>
    </div>
  )
}

/** The layer's own reports: a retake that did not start, how continuing from an attempt went. */
function LayerNotes(props: { startError: string | null; switchNote: SwitchNote | null; onDismissError(): void; onDismissNote(): void; onUndo(back: Attempt): void }) {
  const { startError, switchNote } = props
  return (
    <>
      {startError && (
        <DismissibleNote className="inline-error" role="alert" testID="retake-error" onDismiss={props.onDismissError}>
          Retake did not start: {startError}
        </DismissibleNote>
      )}
      {switchNote && (
        <DismissibleNote
          className={switchNote.ok ? 'inline-note' : 'inline-error'}
          role={switchNote.ok ? 'status' : 'alert'}
          testID="continue-note"
          onDismiss={props.onDismissNote}
        >
          {switchNote.text}
          {switchNote.back && (
            <button type="button" className="text-button" data-testid="continue-undo" onClick={() => props.onUndo(switchNote.back!)}>
              Undo
            </button>
          )}
        </DismissibleNote>
      )}
    </>
  )
}

// Mostly one JSX tree: the layer's notes, sheets and the timeline in the order they are shown.
export function RetakeSessionLayer(props: RetakeSessionLayerProps) {
  const { sessionID, messages } = props
  const session = useRetakeSession(props)
  const { ctx, options, startError, setStartError, sheet, setSheet, comparison, setComparison, restoreNote, setRestoreNote } = session
  const { switching, setSwitching, switchNote, setSwitchNote, runContinue } = useContinueSwitch(setRestoreNote)
  const { extra, below } = useRetakeMessageActions(ctx, session.attempts.data, session.failed, session.checkpoints.data, setSwitching)
  const attempts = session.attempts.data ?? []
  // "Keep this one" of a compare: the kept run's model, made the session's once the switch is done.
  const [keptModel, setKeptModel] = useState<ModelRef | null>(null)
  const keepRun = useKeepRun({
    runContinue,
    ask: (a, model) => (setSwitchNote(null), setKeptModel(model), setSwitching(a)),
    chooseModel: (model) => ctx?.chooseModel(model),
    say: (text) => setSwitchNote({ ok: true, text }),
  })

  return (
    <RetakeProvider value={ctx!}>
      <MessageActionsProvider render={extra} below={below}>
        <div
          className="retake-layer"
          // Ready attribute: every turn's changes are known (sealed), so ↺ knows whether it changed files.
          data-turns-sealed={session.checkpoints.data && !session.checkpoints.data.some((t) => t.status === 'open') ? 'true' : 'false'}
          onKeyDown={(e) => openSheetOnR(e, ctx, messages)}
        >
          <LayerNotes
            startError={startError}
            switchNote={switchNote}
            onDismissError={() => setStartError(null)}
            onDismissNote={() => setSwitchNote(null)}
            onUndo={(back) => {
              setSwitchNote(null)
              setSwitching(back)
            }}
          />
          <InterruptedSwitchNotice attempts={attempts} locked={session.locked} onFinish={(a) => void runContinue(a)} />
          {comparison && (
            <CompareRuns
              columns={compareColumns(comparison, { attempts, messages, checkpoints: session.checkpoints.data ?? [], labelOf: (m) => labelOf(options, m) })}
              turn={{ sessionID: sessionID ?? '', messageID: comparison.messageID }}
              onClose={() => setComparison(null)}
              onKeep={(a, model) => {
                setComparison(null)
                void keepRun(a, model, labelOf(options, model))
              }}
            />
          )}
          {switching && ctx && (
            <RestoreSheet
              purpose={{ kind: 'continue', laterTurns: laterTurns(messages, switching.messageID) }}
              sessionID={ctx.sessionID}
              messageID={switching.messageID}
              onCancel={() => (setSwitching(null), setKeptModel(null))}
              onConfirm={(d: RestoreDecision) => {
                setSwitching(null)
                setKeptModel(null)
                void runContinue(switching, d).then((ok) => ok && keptModel && ctx.chooseModel(keptModel))
              }}
            />
          )}
          {restoreNote && sessionID && <UndoRestoreBar key={restoreNote.seq} sessionID={sessionID} note={restoreNote.text} onDone={() => setRestoreNote(null)} />}
          {props.children}
          {sheet && ctx && (
            <RestoreSheet
              sessionID={ctx.sessionID}
              messageID={sheet.target}
              purpose={
                sheet.rewind
                  ? { kind: 'rewind', laterTurns: laterTurns(messages, sheet.target) }
                  : {
                      kind: 'retake',
                      modelLabel: labelOf(options, sheet.model),
                      laterTurns: laterTurns(messages, sheet.target),
                      ...(sheet.compare ? { compareLabels: sheet.compare.map((m) => labelOf(options, m)) } : {}),
                    }
              }
              onCancel={() => setSheet(null)}
              onConfirm={(d: RestoreDecision) => {
                setSheet(null)
                runSheetDecision(sheet, d, ctx, session.applyRestore, { noteRestore: session.noteRestore, setStartError })
              }}
            />
          )}
          {session.orphans.map((r) => (
            <FailedRetakeNotice key={r.messageID} saved={r} />
          ))}
        </div>
      </MessageActionsProvider>
    </RetakeProvider>
  )
}
