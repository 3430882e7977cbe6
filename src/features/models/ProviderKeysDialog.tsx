/**
 * Connect providers: an API key, or a sign-in where opencode offers one (its `provider.auth`
 * methods), and remove stored keys. Everything is stored by opencode's auth API, never by Retake.
 */
import { useState } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import { useProviderList } from '../../api/queries'
import { Dialog } from '../../ui/Dialog'
import { AuthPrompts } from './AuthPrompts'
import { methodsFor, promptAnswers } from './provider-auth'
import { useProviderAuth, useProviderAuthMethods } from './provider-auth-calls'
import { ProviderSignIn } from './ProviderSignIn'
import { CustomProviderForm } from './CustomProviderForm'
import { ProviderPicker } from './ProviderPicker'
import { CUSTOM_PROVIDER, type ProviderRow } from './provider-order'
import { useProviderKeysWaiting } from './use-apply-provider-keys'

export function ProviderKeysDialog({ onClose }: { onClose(): void }) {
  const list = useProviderList(true)
  const { set, remove } = useProviderAuth()
  const choice = useProviderChoice()
  const [saved, setSaved] = useState<string | null>(null)
  const waiting = useProviderKeysWaiting()
  const connected = new Set(list.data?.connected ?? [])
  const all = list.data?.all ?? []
  const { providerID, method, methodIndex, answered } = choice
  const providerName = all.find((p) => p.id === providerID)?.name || providerID
  // A key set through the auth API shows up as source "custom"/"api"; providers that come from the
  // config file or the environment are not removable from here.
  const withKey = all.filter((p) => connected.has(p.id) && p.source !== 'config' && p.source !== 'env')
  const error = set.error ?? remove.error ?? list.error

  return (
    <Dialog className="dialog" labelledBy="keys-title" testid="provider-keys" onClose={onClose}>
      <div className="dialog-head">
        <h2 id="keys-title">Providers: keys and sign-in</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
          ✕
        </button>
      </div>
      <p className="muted">Keys and sign-ins are stored by the opencode server for this machine.</p>
      <ProviderPicker providers={all} connected={connected} value={providerID} loading={list.isLoading} onChange={choice.setProviderID} />
      {providerID === CUSTOM_PROVIDER ? <CustomProviderForm existing={all.map((p) => p.id)} /> : <MethodsPart choice={choice} />}
      {providerID === CUSTOM_PROVIDER ? null : method.type === 'api' ? (
        <ApiKeyForm
          providerID={providerID}
          ready={answered.ok}
          saving={set.isPending}
          onSave={(key, clear) =>
            answered.ok &&
            set.mutate(
              { providerID, key, metadata: answered.inputs },
              {
                onSuccess: () => {
                  clear()
                  setSaved(providerID)
                },
              },
            )
          }
        />
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
      {withKey.length > 0 && <StoredKeys providers={withKey} removing={remove.isPending} onRemove={(id) => remove.mutate(id)} />}
    </Dialog>
  )
}

/** The provider, the way to connect it and the answers to that way's questions. */
function useProviderChoice() {
  const methodsQuery = useProviderAuthMethods(true)
  const [providerID, setProviderIDState] = useState('')
  const [methodIndex, setMethodIndexState] = useState(0)
  const [answers, setAnswers] = useState<Record<string, string>>({})
  const methods = methodsFor(providerID, methodsQuery.data)
  const method = methods[methodIndex] ?? methods[0]!
  // Answers belong to one method of one provider; the typed key is kept (losing it helps no one).
  const setProviderID = (id: string) => (setProviderIDState(id), setMethodIndexState(0), setAnswers({}))
  const setMethodIndex = (i: number) => (setMethodIndexState(i), setAnswers({}))
  return {
    providerID,
    setProviderID,
    methods,
    methodIndex,
    setMethodIndex,
    method,
    answers,
    setAnswers,
    answered: promptAnswers(method.prompts, answers),
    methodsError: methodsQuery.error,
  }
}

/** The ways to connect (when there is more than one), why they could not be read, and the chosen one's questions. */
function MethodsPart({ choice }: { choice: ReturnType<typeof useProviderChoice> }) {
  const { providerID, methods, methodIndex, methodsError } = choice
  return (
    <>
      {providerID && methods.length > 1 && (
        <div className="auth-methods" role="radiogroup" aria-label="How to connect">
          {methods.map((m, i) => (
            <label key={i} className="settings-check">
              <input type="radio" name="auth-method" data-testid="auth-method" checked={i === methodIndex} onChange={() => choice.setMethodIndex(i)} />
              {m.label}
            </label>
          ))}
        </div>
      )}
      {methodsError && (
        <p className="muted small" role="status" data-testid="auth-methods-error">
          The server&apos;s sign-in methods could not be loaded ({errorMessage(methodsError)}); an API key still works.
        </p>
      )}
      {providerID && <AuthPrompts prompts={choice.method.prompts} values={choice.answers} onChange={choice.setAnswers} />}
    </>
  )
}

/** The key is cleared once it is saved, never before (a failed save leaves it for another try). */
function ApiKeyForm(p: { providerID: string; ready: boolean; saving: boolean; onSave(key: string, clear: () => void): void }) {
  const [key, setKey] = useState('')
  const ok = !!p.providerID && !!key.trim() && p.ready
  return (
    <form
      className="keys-form"
      onSubmit={(e) => {
        e.preventDefault()
        if (!ok) return
        p.onSave(key.trim(), () => setKey(''))
      }}
    >
      <input type="password" aria-label="API key" data-testid="key-input" placeholder="API key" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
      <button type="submit" className="button button-primary" data-testid="key-save" disabled={!ok || p.saving}>
        Save key
      </button>
    </form>
  )
}

function StoredKeys(p: { providers: ProviderRow[]; removing: boolean; onRemove(id: string): void }) {
  return (
    <ul className="keys-list">
      {p.providers.map((x) => (
        <li key={x.id}>
          <span>{x.name || x.id}</span>
          <button
            type="button"
            className="button button-secondary"
            data-testid="key-remove"
            // The same call removes a key or a sign-in: opencode stores both as the provider's auth.
            aria-label={`Remove the key or sign-in for ${x.name || x.id}`}
            disabled={p.removing}
            onClick={() => p.onRemove(x.id)}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  )
}
