/** ↺'s "Retake with…" menu: one model to retake with, or up to three picked to compare. */
import type { ModelRef } from '../../../shared/ipc-contract'
import { modelKey, ModelPalette } from '../models'
import { Popover } from '../../ui/Popover'
import type { RetakeContextValue } from './retake-context'
import { MAX_COMPARE, type RetakeChoices, type RetakeMenu as RetakeMenuState } from './use-retake-menu'

/** The models picked to compare so far, and the button that runs them. */
function ComparePicked({ ctx, several, onRun }: { ctx: RetakeContextValue; several: ModelRef[]; onRun(models: ModelRef[]): void }) {
  return (
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
      <button type="button" className="button button-primary small" data-testid="compare-run" disabled={several.length < 2} onClick={() => onRun(several)}>
        Run on {several.length < 2 ? 'each' : several.length}
      </button>
    </div>
  )
}

export function RetakeMenu({ ctx, menu, choices }: { ctx: RetakeContextValue; menu: RetakeMenuState; choices: RetakeChoices }) {
  const { several, setSeveral } = menu
  return (
    <Popover label="Retake with…" onClose={() => menu.setMenuOpen(false)} trigger={menu.menuButton} className="retake-menu" testid="retake-menu">
      <div className="retake-menu-head">
        Retake with…
        <label className="compare-toggle">
          <input type="checkbox" data-testid="compare-toggle" checked={several !== null} onChange={(e) => setSeveral(e.target.checked ? [] : null)} />
          Compare up to {MAX_COMPARE}
        </label>
      </div>
      <ModelPalette
        label="Retake with…"
        options={ctx.options}
        current={ctx.model ? modelKey(ctx.model) : undefined}
        onChoose={(o) => (several ? choices.pick(o.ref) : choices.withModel(o.ref))}
        {...(several ? { ticked: several.map(modelKey) } : {})}
      />
      {/* Below the list: the picks it gathers never push the rows under the pointer. */}
      {several && <ComparePicked ctx={ctx} several={several} onRun={choices.compare} />}
    </Popover>
  )
}
