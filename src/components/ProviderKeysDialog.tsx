/** Enter or remove provider API keys (stored by opencode's auth API, never by Retake). */
import { useEscape } from '../lib/use-escape'
import { useState } from 'react'
import { useProviderAuth } from '../api/mutations'
import { useProviderKeysWaiting } from '../api/use-apply-provider-keys'
import { useProviderList } from '../api/queries'
import { errorMessage } from '../api/unwrap'

export function ProviderKeysDialog({ onClose }: { onClose(): void }) {
  const list = useProviderList(true)
  const { set, remove } = useProviderAuth()
  const [providerID, setProviderID] = useState('')
  const [key, setKey] = useState('')
  const [saved, setSaved] = useState<string | null>(null)
  const waiting = useProviderKeysWaiting()

  const connected = new Set(list.data?.connected ?? [])
  const all = [...(list.data?.all ?? [])].sort(
    (a, b) => Number(connected.has(b.id)) - Number(connected.has(a.id)) || (a.name || a.id).localeCompare(b.name || b.id),
  )
  // A key set through the auth API shows up as source "custom"/"api"; providers that come from the
  // config file or the environment are not removable from here.
  const withKey = all.filter((p) => connected.has(p.id) && p.source !== 'config' && p.source !== 'env')
  const error = set.error ?? remove.error ?? list.error
  useEscape(onClose)

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="keys-title" data-testid="provider-keys">
        <div className="dialog-head">
          <h2 id="keys-title">Provider API keys</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </div>
        <p className="muted">Keys are stored by the opencode server for this machine.</p>
        <form
          className="keys-form"
          onSubmit={(e) => {
            e.preventDefault()
            if (!providerID || !key.trim()) return
            set.mutate(
              { providerID, key: key.trim() },
              { onSuccess: () => (setKey(''), setSaved(providerID)) },
            )
          }}
        >
          <select
            aria-label="Provider"
            data-testid="key-provider"
            value={providerID}
            onChange={(e) => setProviderID(e.target.value)}
            disabled={list.isLoading}
          >
            <option value="">{list.isLoading ? 'Loading providers…' : 'Choose a provider'}</option>
            {all.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name || p.id}
                {connected.has(p.id) ? ' (connected)' : ''}
              </option>
            ))}
          </select>
          <input
            type="password"
            aria-label="API key"
            data-testid="key-input"
            placeholder="API key"
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
          <button type="submit" className="button button-primary" data-testid="key-save" disabled={!providerID || !key.trim() || set.isPending}>
            Save key
          </button>
        </form>
        {saved && !error && (
          <div className="muted" data-testid="keys-saved">
            Key saved for {saved}. {waiting ? 'It applies as soon as the running turn ends.' : 'In use now, no restart needed.'}
          </div>
        )}
        {error && (
          <div className="inline-error" role="alert">
            {errorMessage(error)}
          </div>
        )}
        {withKey.length > 0 && (
          <ul className="keys-list">
            {withKey.map((p) => (
              <li key={p.id}>
                <span>{p.name || p.id}</span>
                <button
                  type="button"
                  className="button button-secondary"
                  data-testid="key-remove"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(p.id)}
                >
                  Remove key
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}
