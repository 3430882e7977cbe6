/**
 * ↺ on a message: retakes the user turn with the model chosen now (shown on the button), or with
 * another one picked from "Retake with…" — or on several (up to three) to compare. An earlier turn
 * asks first (later turns are discarded); while a turn streams it becomes "Stop and retake"; while a
 * retake runs it is locked.
 */
import { useRef } from 'react'
import type { MessageWithParts } from '../../api/types'
import { useRetakeContext, type RetakeContextValue } from './retake-context'
import { retakeTargetFor } from '../../../shared/retake/retake-target'
import { RETAKE_STEP_LABEL, useRetakeStore, type RunningRetake } from './retake-store'
import { RetakeMenu } from './RetakeMenu'
import { retakeChoices, useRetakeMenu, type RetakeConfirmRequest } from './use-retake-menu'
import { useFloatingPanel } from '../../ui/Popover'

/** A retake of this turn is running: the step it is at instead of ↺. */
function RetakeProgress({ step }: { step: RunningRetake['step'] }) {
  return (
    <span className="retake-progress" data-testid="retake-progress" role="status">
      <span className="spinner" aria-hidden /> {RETAKE_STEP_LABEL[step]}
    </span>
  )
}

/** An earlier turn asks first: its later turns are discarded (kept in the attempt history). */
function RetakeConfirm({ ctx, clickedID, confirm, setConfirm }: { ctx: RetakeContextValue; clickedID: string; confirm: RetakeConfirmRequest; setConfirm(c: null): void }) {
  const panel = useRef<HTMLDivElement>(null)
  const floating = useFloatingPanel(panel)
  return (
    <div ref={floating.ref} style={floating.style} className="retake-confirm" role="alertdialog" aria-label="Retake an earlier turn" data-testid="retake-confirm">
      <div>
        Retake this turn with <strong>{confirm.compare ? confirm.compare.map((m) => m.modelID).join(', ') : confirm.model.modelID}</strong>? The {confirm.later} later turn
        {confirm.later === 1 ? '' : 's'} will be discarded (kept in the attempt history).
      </div>
      <div className="retake-confirm-buttons">
        <button
          type="button"
          className="button button-primary small"
          data-testid="retake-confirm-yes"
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

export function RetakeAction({ message }: { message: MessageWithParts }) {
  const ctx = useRetakeContext()
  const running = useRetakeStore((s) => (ctx ? s.running[ctx.sessionID] : undefined))
  const menu = useRetakeMenu()
  const { menuOpen, setMenuOpen, menuButton, confirm, setConfirm } = menu
  if (!ctx) return null
  const target = retakeTargetFor(ctx.getMessages(), message.info.id)
  if (!target) return null
  if (running?.messageID === target) return <RetakeProgress step={running.step} />
  const choices = retakeChoices(ctx, message.info.id, target, menu)

  const disabled = ctx.locked || !ctx.model
  const label = ctx.busy ? 'Stop and retake' : 'Retake'
  return (
    <span className="retake-action">
      <button
        type="button"
        className="text-button retake-button"
        data-testid="retake"
        disabled={disabled}
        title={ctx.model ? `${label} with ${ctx.modelLabel}` : 'Choose a model first'}
        aria-label={`${label} with ${ctx.modelLabel}`}
        onClick={() => ctx.model && choices.go(ctx.model)}
      >
        ↺ <span className="retake-label">{ctx.busy ? 'Stop and retake' : ctx.modelLabel}</span>
      </button>
      <button
        type="button"
        className="icon-button"
        ref={menuButton}
        data-testid="retake-with"
        aria-haspopup="dialog"
        aria-expanded={menuOpen}
        disabled={ctx.locked}
        title="Retake with another model"
        aria-label="Retake with another model"
        onClick={() => setMenuOpen((o) => !o)}
      >
        ▾
      </button>
      {menuOpen && <RetakeMenu ctx={ctx} menu={menu} choices={choices} />}
      {confirm && <RetakeConfirm ctx={ctx} clickedID={message.info.id} confirm={confirm} setConfirm={setConfirm} />}
    </span>
  )
}
