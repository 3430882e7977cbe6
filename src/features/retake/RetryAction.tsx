/**
 * ↺ on a message: retakes the user turn with the model chosen now (shown on the button), or with
 * another one picked from "Retry with…" — or on several (up to three) to compare. An earlier turn
 * asks first (later turns are discarded); while a turn streams it becomes "Stop and retry"; while a
 * retry runs it is locked.
 */
import { useRef, useState } from 'react'
import type { MessageWithParts } from '../../api/types'
import { modelKey } from '../models/model-choice'
import type { ModelRef } from '../../../shared/ipc-contract'
import { useRetryContext } from './retry-context'
import { laterTurns, retakeEntry, retryTargetFor } from '../../../shared/retry/retry-target'
import { RETRY_STEP_LABEL, useRetryStore } from './retry-store'
import { ModelPalette } from '../palette/ModelPalette'
import { Popover } from '../palette/Popover'

/** How many models one "Retry with several" runs at most (each run is a whole turn). */
const MAX_COMPARE = 3

export function RetryAction({ message }: { message: MessageWithParts }) {
  const ctx = useRetryContext()
  const running = useRetryStore((s) => (ctx ? s.running[ctx.sessionID] : undefined))
  const [menuOpen, setMenuOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const [confirm, setConfirm] = useState<{ model: ModelRef; later: number; compare?: ModelRef[] } | null>(null)
  // "Compare several": the models picked so far (up to MAX_COMPARE), in the order picked.
  const [several, setSeveral] = useState<ModelRef[] | null>(null)
  if (!ctx) return null
  const target = retryTargetFor(ctx.getMessages(), message.info.id)
  if (!target) return null
  const isRunningHere = running?.messageID === target

  const go = (model: ModelRef) => {
    setMenuOpen(false)
    const later = laterTurns(ctx.getMessages(), target)
    const entry = retakeEntry(ctx.changedFiles(target), later)
    if (entry === 'sheet') ctx.openRestoreSheet(message.info.id, model)
    else if (entry === 'confirm') setConfirm({ model, later })
    else void ctx.retake(message.info.id, model)
  }
  const withModel = (ref: ModelRef) => {
    ctx.chooseModel(ref)
    go(ref)
  }
  const pick = (ref: ModelRef) =>
    setSeveral((list) => {
      const now = list ?? []
      if (now.some((m) => modelKey(m) === modelKey(ref))) return now.filter((m) => modelKey(m) !== modelKey(ref))
      return now.length >= MAX_COMPARE ? now : [...now, ref]
    })
  const compare = (models: ModelRef[]) => {
    setMenuOpen(false)
    setSeveral(null)
    const later = laterTurns(ctx.getMessages(), target)
    const entry = retakeEntry(ctx.changedFiles(target), later)
    if (entry === 'sheet') ctx.openRestoreSheet(message.info.id, models[0]!, undefined, models)
    else if (entry === 'confirm') setConfirm({ model: models[0]!, later, compare: models })
    else void ctx.compare(message.info.id, models)
  }

  if (isRunningHere) {
    return (
      <span className="retry-progress" data-testid="retry-progress" role="status">
        <span className="spinner" aria-hidden /> {RETRY_STEP_LABEL[running.step]}
      </span>
    )
  }
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
        onClick={() => ctx.model && go(ctx.model)}
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
        onClick={() => setMenuOpen((o) => !o)}
      >
        ▾
      </button>
      {menuOpen && (
        <Popover label="Retry with…" onClose={() => setMenuOpen(false)} trigger={menuButton} className="retry-menu" testid="retry-menu">
          <div className="retry-menu-head">
            Retry with…
            <label className="compare-toggle">
              <input type="checkbox" data-testid="compare-toggle" checked={several !== null} onChange={(e) => setSeveral(e.target.checked ? [] : null)} />
              Compare up to {MAX_COMPARE}
            </label>
          </div>
          {several && (
            <div className="compare-picked" data-testid="compare-picked">
              {several.length === 0 ? (
                <span className="muted">Pick two or three models: the turn runs on each from the same files.</span>
              ) : (
                several.map((m, i) => (
                  <span key={modelKey(m)} className="compare-chip">
                    {i + 1}. {ctx.options.find((o) => o.key === modelKey(m))?.modelName ?? m.modelID}
                  </span>
                ))
              )}
              <button type="button" className="button button-primary small" data-testid="compare-run" disabled={several.length < 2} onClick={() => compare(several)}>
                Run on {several.length < 2 ? 'each' : several.length}
              </button>
            </div>
          )}
          <ModelPalette
            label="Retry with…"
            options={ctx.options}
            current={ctx.model ? modelKey(ctx.model) : undefined}
            onChoose={(o) => (several ? pick(o.ref) : withModel(o.ref))}
          />
        </Popover>
      )}
      {confirm && (
        <div className="retry-confirm" role="alertdialog" aria-label="Retake an earlier turn" data-testid="retry-confirm">
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
                void (several ? ctx.compare(message.info.id, several) : ctx.retake(message.info.id, m))
              }}
            >
              Retake
            </button>
            <button type="button" className="button button-secondary small" onClick={() => setConfirm(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </span>
  )
}
