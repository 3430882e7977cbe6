/**
 * Which provider to connect: a search box over a list with the popular providers first, then all
 * the others, then "a provider of my own" (any OpenAI-compatible URL).
 */
import { useState } from 'react'
import { CUSTOM_PROVIDER, orderProviders, type ProviderRow } from './provider-order'

export const CUSTOM_PROVIDER_LABEL = 'Custom provider (OpenAI-compatible URL)'

export function ProviderPicker(p: { providers: ProviderRow[]; connected: Set<string>; value: string; loading: boolean; onChange(id: string): void }) {
  const [query, setQuery] = useState('')
  const { popular, rest } = orderProviders(p.providers, query)
  // The chosen provider stays in the list while a search that leaves it out is typed.
  const chosen = p.providers.find((x) => x.id === p.value)
  const hidden = chosen && !popular.includes(chosen) && !rest.includes(chosen) ? chosen : undefined
  const option = (x: ProviderRow) => (
    <option key={x.id} value={x.id}>
      {x.name || x.id}
      {p.connected.has(x.id) ? ' (connected)' : ''}
    </option>
  )
  const none = query.trim() !== '' && popular.length === 0 && rest.length === 0
  return (
    <div className="keys-picker">
      <input
        type="search"
        className="keys-search"
        aria-label="Search providers"
        placeholder="Search providers"
        value={query}
        disabled={p.loading}
        onChange={(e) => setQuery(e.target.value)}
        // Enter takes the first provider the search leaves.
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return
          e.preventDefault()
          const first = popular[0] ?? rest[0]
          if (first) p.onChange(first.id)
        }}
      />
      <select aria-label="Provider" data-testid="key-provider" className="keys-provider" value={p.value} onChange={(e) => p.onChange(e.target.value)} disabled={p.loading}>
        <option value="">{p.loading ? 'Loading providers…' : none ? `No provider matches “${query.trim()}”` : 'Choose a provider'}</option>
        {hidden && option(hidden)}
        {popular.length > 0 && <optgroup label="Popular">{popular.map(option)}</optgroup>}
        {rest.length > 0 && <optgroup label={popular.length > 0 ? 'All other providers' : 'Providers'}>{rest.map(option)}</optgroup>}
        <optgroup label="Your own">
          <option value={CUSTOM_PROVIDER}>{CUSTOM_PROVIDER_LABEL}</option>
        </optgroup>
      </select>
    </div>
  )
}
