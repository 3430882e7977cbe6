/**
 * The restore sheet a ↺ opens when the turn (or a later one) changed files: what will be put back,
 * what the turns created and will be removed, and every file changed since (a conflict) with keep
 * mine (default) / take the checkpoint / view diff. Files and conversation (default), conversation
 * only, or files only.
 */
import { errorMessage } from '../../../shared/unwrap'
import { RestorePlanGroups } from './RestorePlanGroups'
import { useRestoreChoices, type RestoreChoices, type RestoreDecision } from './use-restore-choices'

export type { RestoreDecision, RestoreMode } from './use-restore-choices'

export function RestoreSheet(props: {
  sessionID: string
  messageID: string
  modelLabel: string
  laterTurns: number
  /** "continue": the sheet of "continue from this attempt" (the current branch's files roll back). */
  purpose?: 'retake' | 'continue'
  onCancel(): void
  onConfirm(decision: RestoreDecision): void
}) {
  const sheet = useRestoreChoices(props)
  const { planner, plan, groups, mode } = sheet
  const continuing = props.purpose === 'continue'

  return (
    <div className="dialog-backdrop" role="presentation">
      <div className="dialog restore-sheet" role="dialog" aria-modal="true" aria-label={continuing ? 'Continue from this attempt' : 'Retake this turn'} data-testid="restore-sheet">
        <div className="dialog-head">
          <h2>{continuing ? 'Continue from this attempt' : `Retake with ${props.modelLabel}`}</h2>
        </div>
        {continuing && (
          <p className="muted" data-testid="continue-explainer">
            The current answers{props.laterTurns > 0 ? ` and the ${props.laterTurns} later turn${props.laterTurns === 1 ? '' : 's'}` : ''} are kept as an attempt you can come back
            to. Their file changes below are rolled back, then the files come back as the attempt left them.
          </p>
        )}
        {!continuing && props.laterTurns > 0 && (
          <p className="muted">
            The {props.laterTurns} later turn{props.laterTurns === 1 ? '' : 's'} will be discarded (kept in the attempt history).
          </p>
        )}
        {planner.isPending && <p className="muted">Working out what to restore…</p>}
        {planner.error && (
          <p className="inline-error" role="alert">
            Could not plan the file restore: {errorMessage(planner.error)}. You can still retake the conversation only.
          </p>
        )}
        {groups && <RestorePlanGroups sheet={sheet} groups={groups} warnings={plan!.warnings} />}
        <RestoreModeChoice sheet={sheet} continuing={continuing} />
        <div className="dialog-buttons">
          <button type="button" className="button button-secondary" onClick={props.onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            data-testid="restore-confirm"
            disabled={mode !== 'conversation' && !plan}
            onClick={() => (mode === 'conversation' ? props.onConfirm({ mode, planId: '', overwrite: [], keep: [] }) : sheet.confirm(mode))}
          >
            {continuing ? 'Continue from this attempt' : mode === 'files' ? 'Restore files' : 'Retake'}
          </button>
        </div>
      </div>
    </div>
  )
}

/** Files and conversation (default), conversation only, or files only (not when continuing). */
function RestoreModeChoice({ sheet, continuing }: { sheet: RestoreChoices; continuing: boolean }) {
  return (
    <fieldset className="restore-mode">
      <legend>Roll back</legend>
      {(
        [
          ['both', 'Files and conversation'],
          ['conversation', continuing ? 'Conversation only (files stay as they are now)' : 'Conversation only (files stay as they are)'],
          ['files', 'Files only (the conversation stays)'],
        ] as const
      )
        .filter(([value]) => !continuing || value !== 'files')
        .map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name="restore-mode"
              value={value}
              checked={sheet.mode === value}
              onChange={() => sheet.setMode(value)}
              disabled={value !== 'conversation' && !sheet.plan}
            />
            {label}
          </label>
        ))}
    </fieldset>
  )
}
