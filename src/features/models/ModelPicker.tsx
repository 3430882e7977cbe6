/**
 * The model of the session, from the server's configured providers; the choice is kept per session.
 * A button showing the model in use; it opens the searchable model palette (the native select it
 * replaces could not be searched with ~230 providers).
 */
import { useId, useRef, useState } from 'react'
import type { ModelRef } from '../../../shared/ipc-contract'
import { modelKey, modelOptions, type ResolvedModel } from './model-choice'
import type { Provider } from '../../api/types'
import { ModelPalette } from './ModelPalette'
import { Popover } from '../../ui/Popover'

export function ModelPicker({ providers, resolved, onChange, loading }: { providers: Provider[]; resolved: ResolvedModel; onChange(ref: ModelRef): void; loading: boolean }) {
  const [open, setOpen] = useState(false)
  const trigger = useRef<HTMLButtonElement>(null)
  const id = useId()
  const options = modelOptions(providers)
  const current = resolved.ref ? modelKey(resolved.ref) : ''
  const known = options.find((o) => o.key === current)
  const isDefault = resolved.source === 'default'
  const text = loading
    ? 'Loading models…'
    : options.length === 0
      ? 'No models configured'
      : known
        ? `${known.modelName}${isDefault ? ' (default)' : ''}`
        : current
          ? `${current} (unavailable)`
          : 'Choose a model'
  return (
    <div className="picker model-picker">
      <span className="picker-label" id={`${id}-label`}>
        Model
      </span>
      <button
        ref={trigger}
        type="button"
        className="model-picker-button"
        data-testid="model-picker"
        data-model={current}
        // Named by all it shows (label, model, provider): a voice user says what they see.
        aria-labelledby={`${id}-label ${id}-value${known ? ` ${id}-provider` : ''}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={loading || options.length === 0}
        title={known ? `${known.modelName} · ${known.providerName}` : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="name" id={`${id}-value`}>
          {text}
        </span>{' '}
        {known && (
          <span className="provider" id={`${id}-provider`}>
            {known.providerName}
          </span>
        )}
        <span className="chevron" aria-hidden />
      </button>
      {open && (
        <Popover label="Choose a model" onClose={() => setOpen(false)} trigger={trigger} testid="model-palette" placement="bottom-end">
          <ModelPalette
            options={options}
            current={current}
            currentNote={isDefault ? 'default' : undefined}
            onChoose={(o) => {
              setOpen(false)
              onChange(o.ref)
            }}
          />
        </Popover>
      )}
    </div>
  )
}
