/**
 * A provider of the user's own (custom-provider.ts): a name, the OpenAI-compatible URL and the
 * models to offer become the opencode config entry to paste, with where it goes.
 */
import { useState } from 'react'
import { CopyButton } from '../../ui/CopyButton'
import { checkCustomProvider, customProviderConfig } from './custom-provider'
import { useProvidersChanged } from './provider-auth-calls'

export function CustomProviderForm({ existing }: { existing: string[] }) {
  const [form, setForm] = useState({ id: '', baseURL: '', models: '' })
  const [outcome, setOutcome] = useState<{ error: string } | { config: string } | null>(null)
  const [loading, setLoading] = useState<'idle' | 'asked'>('idle')
  const reload = useProvidersChanged()
  const field = (name: keyof typeof form) => ({ value: form[name], onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [name]: e.target.value }) })
  return (
    <form
      className="custom-provider"
      aria-label="Custom provider"
      onSubmit={(e) => {
        e.preventDefault()
        const checked = checkCustomProvider(form, existing)
        setOutcome('error' in checked ? checked : { config: customProviderConfig(checked) })
      }}
    >
      <p className="muted small">Any server that speaks the OpenAI API: a local model server, a company gateway.</p>
      <label>
        Name
        <input placeholder="my-server" autoComplete="off" {...field('id')} />
      </label>
      <label>
        URL
        <input type="url" placeholder="http://127.0.0.1:8080/v1" autoComplete="off" {...field('baseURL')} />
      </label>
      <label>
        Models
        <input placeholder="model ids, separated by commas" autoComplete="off" {...field('models')} />
      </label>
      <button type="submit" className="button button-primary">
        Make the config entry
      </button>
      {outcome && 'error' in outcome && (
        <div className="inline-error" role="alert">
          {outcome.error}
        </div>
      )}
      {outcome && 'config' in outcome && (
        <div className="custom-provider-config" role="status">
          <p>
            The opencode server adds providers from its config only: put this in <code>opencode.json</code> in the project folder (or in{' '}
            <code>~/.config/opencode/opencode.json</code> for every project), then load it. If the server needs a key, choose the provider above and save it.
          </p>
          <pre aria-label="Config entry">{outcome.config}</pre>
          <div className="custom-provider-actions">
            <CopyButton text={() => outcome.config} label="Copy the config entry" testId="copy-provider-config" />
            <button
              type="button"
              className="button button-secondary small"
              onClick={() => {
                setLoading('asked')
                void reload()
              }}
            >
              Load the config now
            </button>
            {loading === 'asked' && <span className="muted small">The providers reload as soon as no turn is running.</span>}
          </div>
        </div>
      )}
    </form>
  )
}
