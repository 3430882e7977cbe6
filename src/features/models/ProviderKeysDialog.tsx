/**
 * Connect providers: an API key, or a sign-in where opencode offers one (its `provider.auth`
 * methods), and remove stored keys. Everything is stored by opencode's auth API, never by Retake.
 */
import { useEscape } from '../../ui/use-escape'
import { useState } from 'react'
import { useProviderAuth } from './provider-auth-calls'
import { useProviderAuthMethods } from './provider-auth-calls'
import { useProviderKeysWaiting } from './use-apply-provider-keys'
import { useProviderList } from '../../api/queries'
import { errorMessage } from '../../../shared/unwrap'
import { methodsFor, promptAnswers } from './provider-auth'
import { AuthPrompts } from './AuthPrompts'
import { ProviderSignIn } from './ProviderSignIn'

export function ProviderKeysDialog({ onClose }: { onClose(): void }) {
  const list = useProviderList(true)
  const { set, remove } = useProviderAuth()
  const methodsQuery = useProviderAuthMethods(true)
  const [providerID, setProviderIDState] = useState('')
  const [methodIndex, setMethodIndex] = useState(0)
  const [answers, setAnswers] = useState<Record<string, string>>({})
  const [key, setKey] = useState('')
  const [saved, setSaved] = useState<string | null>(null)
  const waiting = useProviderKeysWaiting()

  const connected = new Set(list.data?.connected ?? [])
  const all = [...(list.data?.all ?? [])].sort((a, b) => Number(connected.has(b.id)) - Number(connected.has(a.id)) || (a.name || a.id).localeCompare(b.name || b.id))
  // A key set through the auth API shows up as source "custom"/"api"; providers that come from the
  // config file or the environment are not removable from here.
  const methods = methodsFor(providerID, methodsQuery.data)
  const method = methods[methodIndex] ?? methods[0]!
  const answered = promptAnswers(method.prompts, answers)
  const providerName = all.find((p) => p.id === providerID)?.name || providerID
  // Answers belong to one method of one provider; the typed key is kept (losing it helps no one).
  const setProviderID = (id: string) => (setProviderIDState(id), setMethodIndex(0), setAnswers({}))
  const withKey = all.filter((p) => connected.has(p.id) && p.source !== 'config' && p.source !== 'env')
  const error = set.error ?? remove.error ?? list.error
  useEscape(onClose)

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="keys-title" data-testid="provider-keys">
        <div className="dialog-head">
          <h2 id="keys-title">Providers: keys and sign-in</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </div>
        <p className="muted">Keys and sign-ins are stored by the opencode server for this machine.</p>
        <select
          aria-label="Provider"
          data-testid="key-provider"
          className="keys-provider"
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
        {providerID && methods.length > 1 && (
          <div className="auth-methods" role="radiogroup" aria-label="How to connect">
            {methods.map((m, i) => (
              <label key={i} className="settings-check">
                <input type="radio" name="auth-method" data-testid="auth-method" checked={i === methodIndex} onChange={() => (setMethodIndex(i), setAnswers({}))} />
                {m.label}
              </label>
            ))}
          </div>
        )}
        {methodsQuery.error && (
          <p className="muted small" role="status" data-testid="auth-methods-error">
            The server&apos;s sign-in methods could not be loaded ({errorMessage(methodsQuery.error)}); an API key still works.
          </p>
        )}
        {providerID && <AuthPrompts prompts={method.prompts} values={answers} onChange={setAnswers} />}
        {method.type === 'api' ? (
          <form
            className="keys-form"
            onSubmit={(e) => {
              e.preventDefault()
              if (!providerID || !key.trim() || !answered.ok) return
              set.mutate({ providerID, key: key.trim(), metadata: answered.inputs }, { onSuccess: () => (setKey(''), setSaved(providerID)) })
            }}
          >
            <input type="password" aria-label="API key" data-testid="key-input" placeholder="API key" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
            <button type="submit" className="button button-primary" data-testid="key-save" disabled={!providerID || !key.trim() || !answered.ok || set.isPending}>
              Save key
            </button>
          </form>
        ) : (
          <ProviderSignIn key={`${providerID}/${methodIndex}`} providerID={providerID} providerName={providerName} method={methodIndex} label={method.label} inputs={answered} />
        )}
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
                  // The same call removes a key or a sign-in: opencode stores both as the provider's auth.
                  aria-label={`Remove the key or sign-in for ${p.name || p.id}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(p.id)}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}
