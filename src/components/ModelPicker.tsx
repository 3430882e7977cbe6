/** The model of the session, from the server's configured providers; the choice is kept per session. */
import type { ModelRef } from '../shared/ipc-contract'
import { modelKey, modelOptions, parseModelKey, type ResolvedModel } from '../lib/model-choice'
import type { Provider } from '../api/types'

function capabilityNote(caps: NonNullable<ReturnType<typeof modelOptions>[number]['capabilities']>): string {
  const notes: string[] = []
  if (caps.reasoning) notes.push('reasoning')
  if (caps.input?.image) notes.push('images')
  if (caps.input?.pdf) notes.push('pdf')
  if (!caps.toolcall) notes.push('no tools')
  return notes.length ? ` · ${notes.join(', ')}` : ''
}

export function ModelPicker({
  providers,
  resolved,
  onChange,
  loading,
}: {
  providers: Provider[]
  resolved: ResolvedModel
  onChange(ref: ModelRef): void
  loading: boolean
}) {
  const options = modelOptions(providers)
  const current = resolved.ref ? modelKey(resolved.ref) : ''
  const known = options.some((o) => o.key === current)
  const groups = new Map<string, typeof options>()
  for (const o of options) groups.set(o.providerName, [...(groups.get(o.providerName) ?? []), o])
  return (
    <label className="picker">
      <span className="picker-label">Model</span>
      <select
        data-testid="model-picker"
        aria-label="Model"
        value={current}
        disabled={loading || options.length === 0}
        onChange={(e) => {
          const ref = parseModelKey(e.target.value)
          if (ref) onChange(ref)
        }}
      >
        {loading && <option value={current}>Loading models…</option>}
        {!loading && options.length === 0 && <option value="">No models configured</option>}
        {!loading && current && !known && <option value={current}>{current} (unavailable)</option>}
        {[...groups].map(([name, list]) => (
          <optgroup key={name} label={name}>
            {list.map((o) => (
              <option key={o.key} value={o.key}>
                {o.modelName}
                {o.capabilities ? capabilityNote(o.capabilities) : ''}
                {o.key === current && resolved.source === 'default' ? ' (default)' : ''}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  )
}
