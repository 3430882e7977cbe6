/**
 * ↺ on a message: retakes the user turn with the model chosen now (shown on the button), or with
 * another one picked from "Retry with…" — or on several (up to three) to compare. An earlier turn
 * asks first (later turns are discarded); while a turn streams it becomes "Stop and retry"; while a
 * retry runs it is locked.
 */
import { useRef } from 'react'
import type { MessageWithParts } from '../../api/types'
import { useRetryContext, type RetryContextValue } from './retry-context'
import { retryTargetFor } from '../../../shared/retry/retry-target'
import { RETRY_STEP_LABEL, useRetryStore, type RunningRetry } from './retry-store'
import { RetryMenu } from './RetryMenu'
import { retryChoices, useRetryMenu, type RetryConfirmRequest } from './use-retry-menu'
import { useFloatingPanel } from '../../ui/Popover'

/** A retry of this turn is running: the step it is at instead of ↺. */
function RetryProgress({ step }: { step: RunningRetry['step'] }) {
  return (
    <span className="retry-progress" data-testid="retry-progress" role="status">
      <span className="spinner" aria-hidden /> {RETRY_STEP_LABEL[step]}
    </span>
  )
}

/** An earlier turn asks first: its later turns are discarded (kept in the attempt history). */
function RetryConfirm({ ctx, clickedID, confirm, setConfirm }: { ctx: RetryContextValue; clickedID: string; confirm: RetryConfirmRequest; setConfirm(c: null): void }) {
  const panel = useRef<HTMLDivElement>(null)
  const floating = useFloatingPanel(panel)
  return (
    <div ref={floating.ref} style={floating.style} className="retry-confirm" role="alertdialog" aria-label="Retake an earlier turn" data-testid="retry-confirm">
      <div>
        Retake this turn with <strong>{confirm.compare ? confirm.compare.map((m) => m.modelID).join(', ') : confirm.model.modelID}</strong>? The {confirm.later} later turn
        {confirm.later === 1 ? '' : 's'} will be discarded (kept in the attempt history).
      </div>
      <div className="retry-confirm-buttons">
        <button
          type="button"
          className="button button-primary small"
          data-testid="retry-confirm-yes"
          onClick={() => {
            const { model: m, compare: several } = confirm
            setConfirm(null)
            void (several ? ctx.compare(clickedID, several) : ctx.retake(clickedID, m))
          }}
        >
          Retake
        </button>
        <button type="button" className="button button-secondary small" onClick={() => setConfirm(null)}>
          Cancel
        </button>
      </div>
    </div>
  )
}

export function RetryAction({ message }: { message: MessageWithParts }) {
  const ctx = useRetryContext()
  const running = useRetryStore((s) => (ctx ? s.running[ctx.sessionID] : undefined))
  const menu = useRetryMenu()
  const { menuOpen, setMenuOpen, menuButton, confirm, setConfirm } = menu
  if (!ctx) return null
  const target = retryTargetFor(ctx.getMessages(), message.info.id)
  if (!target) return null
  if (running?.messageID === target) return <RetryProgress step={running.step} />
  const choices = retryChoices(ctx, message.info.id, target, menu)

  const disabled = ctx.locked || !ctx.model
  const label = ctx.busy ? 'Stop and retry' : 'Retry'
  return (
    <span className="retry-action">
      <button
        type="button"
        className="text-button retry-button"
        data-testid="retry"
        disabled={disabled}
        title={ctx.model ? `${label} with ${ctx.modelLabel}` : 'Choose a model first'}
        aria-label={`${label} with ${ctx.modelLabel}`}
        onClick={() => ctx.model && choices.go(ctx.model)}
      >
        ↺ <span className="retry-label">{ctx.busy ? 'Stop and retry' : ctx.modelLabel}</span>
      </button>
      <button
        type="button"
        className="icon-button"
        ref={menuButton}
        data-testid="retry-with"
        aria-haspopup="dialog"
        aria-expanded={menuOpen}
        disabled={ctx.locked}
        title="Retry with another model"
        aria-label="Retry with another model"
        onClick={() => setMenuOpen((o) => !o)}
      >
        ▾
      </button>
      {menuOpen && <RetryMenu ctx={ctx} menu={menu} choices={choices} />}
      {confirm && <RetryConfirm ctx={ctx} clickedID={message.info.id} confirm={confirm} setConfirm={setConfirm} />}
    </span>
  )
}
