/**
 * The one restore sheet: what will be put back, what the turns created and will be removed, and
 * every file changed since (a conflict), each with its choice in plain words and its diff.
 * Nothing is overwritten unless chosen. Three purposes: ↺ (a retake: files and conversation,
 * conversation only, or files only), "continue from this attempt" (no files only), and the
 * Checkpoints panel's "Restore back to here" (files only, shown in the panel itself: the
 * conversation is not changed). Its styles are in retake.css, which comes with the chat that opens
 * every one of them. /rewind's purpose is ↺'s without the prompt: it says it goes back and sends nothing.
 */
import { useRef, type ReactNode, type RefObject } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import { Dialog } from '../../ui/Dialog'
import { canConfirmRestore, confirmRestoreLabel, filesOnlyIntro, restoreModes, REWIND_TITLE } from './checkpoint-logic'
import { RestorePlanGroups } from './RestorePlanGroups'
import { useRestoreChoices, type RestoreChoices, type RestoreDecision } from './use-restore-choices'

export type { RestoreDecision } from './use-restore-choices'

/** What the sheet is for, with what each purpose shows. */
export type RestorePurpose =
  /** compareLabels: "Retake with several models", every model it runs, in order. */
  | { kind: 'retake'; modelLabel: string; laterTurns: number; compareLabels?: string[] }
  /** /rewind: back to before the turn, its message to edit in the composer; nothing is sent. */
  | { kind: 'rewind'; laterTurns: number }
  | { kind: 'continue'; laterTurns: number }
  /** The panel's restore: it applies the decision itself, so it says how that goes. */
  | { kind: 'files'; turnLabel: string; applying: boolean; error: string | null }

export interface RestoreSheetProps {
  sessionID: string
  messageID: string
  purpose: RestorePurpose
  onCancel(): void
  onConfirm(decision: RestoreDecision): void
  /** Only this file (root + path) starts chosen; the plan's other files start "left as they are" (the Changes panel). */
  only?: { root: string; path: string }
}

export function RestoreSheet(props: RestoreSheetProps) {
  const { purpose } = props
  const sheet = useRestoreChoices({ sessionID: props.sessionID, messageID: props.messageID, purpose: purpose.kind, onConfirm: props.onConfirm, only: props.only })
  const { planner, plan, groups } = sheet
  // Cancel is the safe choice: the sheet opens with focus on it (a stray Enter loses nothing).
  const cancel = useRef<HTMLButtonElement>(null)
  const content = (
    <>
      <RestoreIntro purpose={purpose} turns={plan?.turns.length ?? null} />
      {planner.isPending && <p className="muted">Working out what to restore…</p>}
      {planner.error && (
        <p className="inline-error" role="alert">
          Could not plan the file restore: {errorMessage(planner.error)}.{NO_PLAN_LEFT[purpose.kind]}
        </p>
      )}
      {groups && plan && <RestorePlanGroups sheet={sheet} groups={groups} plan={plan} outside={sheet.outside} />}
      {purpose.kind !== 'files' && <RestoreModeChoice sheet={sheet} kind={purpose.kind} />}
      {purpose.kind === 'files' && purpose.error && (
        <p className="inline-error" role="alert">
          {purpose.error}
        </p>
      )}
      <SheetButtons sheet={sheet} purpose={purpose} onCancel={props.onCancel} cancelRef={cancel} />
    </>
  )
  if (purpose.kind === 'files') {
    return (
      <section className="restore-sheet restore-inline" aria-label="Restore files" data-testid="restore-sheet">
        {content}
      </section>
    )
  }
  return (
    <RestoreDialog label={DIALOG_LABELS[purpose.kind]} onCancel={props.onCancel} cancel={cancel}>
      {content}
    </RestoreDialog>
  )
}

const DIALOG_LABELS = { retake: 'Retake this turn', rewind: REWIND_TITLE, continue: 'Continue from this attempt' }

/** What is still possible when the file restore could not be planned. */
const NO_PLAN_LEFT = {
  retake: ' You can still retake the conversation only.',
  rewind: ' You can still go back in the conversation only.',
  continue: ' You can still continue with the conversation only.',
  files: '',
}

/**
 * A retake or a switch asks over the chat, as a modal dialog: focus starts on Cancel, Tab stays in
 * the sheet, Escape cancels it (the panel's own Escape closes the panel). A click beside it does
 * not: the choices made in it would be lost.
 */
function RestoreDialog({ label, onCancel, cancel, children }: { label: string; onCancel(): void; cancel: RefObject<HTMLButtonElement | null>; children: ReactNode }) {
  return (
    <Dialog className="dialog restore-sheet" label={label} testid="restore-sheet" onClose={onCancel} initialFocus={cancel} closeOnBackdrop={false}>
      {children}
    </Dialog>
  )
}

/** The heading and what the purpose does besides the files (later turns, the conversation). */
function RestoreIntro({ purpose, turns }: { purpose: RestorePurpose; turns: number | null }) {
  if (purpose.kind === 'files') {
    return (
      <>
        <h3>Restore back to “{purpose.turnLabel}”</h3>
        <p className="muted small">{filesOnlyIntro(turns)}</p>
      </>
    )
  }
  const later = purpose.laterTurns
  const laterText = `${later} later turn${later === 1 ? '' : 's'}`
  if (purpose.kind === 'continue') {
    return (
      <>
        <div className="dialog-head">
          <h2>Continue from this attempt</h2>
        </div>
        <p className="muted" data-testid="continue-explainer">
          The current answers{later > 0 ? ` and the ${laterText}` : ''} are kept as an attempt you can come back to. Their file changes below are rolled back, then the files come
          back as the attempt left them.
        </p>
      </>
    )
  }
  if (purpose.kind === 'rewind') {
    return (
      <>
        <div className="dialog-head">
          <h2>{REWIND_TITLE}</h2>
        </div>
        <p className="muted" data-testid="rewind-explainer">
          The turn{later > 0 ? ` and the ${laterText}` : ''} leave{later > 0 ? '' : 's'} the conversation. Its message comes back to the composer for you to edit; nothing is sent.
        </p>
      </>
    )
  }
  const several = purpose.compareLabels
  return (
    <>
      <div className="dialog-head">
        <h2>{several ? `Retake with ${listOf(several)}` : `Retake with ${purpose.modelLabel}`}</h2>
      </div>
      {several && (
        <p className="muted" data-testid="compare-explainer">
          The turn runs on each of the {several.length} models in turn, each from the files as they were before it; then you compare the answers and keep one.
        </p>
      )}
      {later > 0 && <p className="muted">The {laterText} will be discarded (kept in the attempt history).</p>}
    </>
  )
}

/** "A, B and C". */
function listOf(names: string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

function SheetButtons({
  sheet,
  purpose,
  onCancel,
  cancelRef,
}: {
  sheet: RestoreChoices
  purpose: RestorePurpose
  onCancel(): void
  cancelRef: RefObject<HTMLButtonElement | null>
}) {
  const applying = purpose.kind === 'files' && purpose.applying
  const enabled = canConfirmRestore({ mode: sheet.mode, planned: !!sheet.plan, empty: sheet.empty, applying })
  return (
    <div className="dialog-buttons">
      <button ref={cancelRef} type="button" className="button button-secondary" data-testid="restore-cancel" onClick={onCancel}>
        Cancel
      </button>
      <button type="button" className="button button-primary" data-testid="restore-confirm" disabled={!enabled} onClick={sheet.confirm}>
        {confirmRestoreLabel(purpose.kind, sheet.mode, applying)}
      </button>
    </div>
  )
}

const MODE_LABELS = {
  both: () => 'Files and conversation',
  conversation: (continuing: boolean) => (continuing ? 'Conversation only (files stay as they are now)' : 'Conversation only (files stay as they are)'),
  files: () => 'Files only (the conversation stays)',
}

/** Files and conversation (default), conversation only, or files only (not when continuing). */
function RestoreModeChoice({ sheet, kind }: { sheet: RestoreChoices; kind: 'retake' | 'rewind' | 'continue' }) {
  return (
    <fieldset className="restore-mode">
      <legend>Roll back</legend>
      {restoreModes(kind).map((value) => (
        <label key={value}>
          <input
            type="radio"
            name="restore-mode"
            value={value}
            checked={sheet.mode === value}
            onChange={() => sheet.setMode(value)}
            disabled={value !== 'conversation' && !sheet.plan}
          />
          {MODE_LABELS[value](kind === 'continue')}
        </label>
      ))}
    </fieldset>
  )
}
