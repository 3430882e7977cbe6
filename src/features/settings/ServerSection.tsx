/** Settings › opencode server: remote URL and write-only password, config file, own HOME. Saving reconnects. */
import { useState, type FormEvent } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import type { SettingsView } from '../../../shared/ipc-contract'
import { passwordHint, serverPatch } from '../checkpoints'
import { ServerSetupNote } from './ServerSetupNote'
import { useUpdateSettings } from './use-settings'

/** The form's fields, checked into a settings patch on submit (a bad one is shown instead of saved). */
function useServerForm(settings: SettingsView) {
  const update = useUpdateSettings()
  const [url, setUrl] = useState(settings.remoteUrl ?? '')
  const [password, setPassword] = useState('')
  const [configPath, setConfigPath] = useState(settings.opencodeConfigPath ?? '')
  const [useUserHome, setUseUserHome] = useState(settings.useUserOpencodeHome)
  const [invalid, setInvalid] = useState<string | null>(null)
  const hint = passwordHint({ remoteUrl: url, password }, settings)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const r = serverPatch({ remoteUrl: url, password, configPath, useUserHome })
    if (!r.ok) return setInvalid(r.error)
    setInvalid(null)
    update.mutate(r.patch, { onSuccess: () => setPassword('') })
  }
  return { update, url, setUrl, password, setPassword, configPath, setConfigPath, useUserHome, setUseUserHome, invalid, hint, submit }
}

type ServerForm = ReturnType<typeof useServerForm>

export function ServerSection({ settings }: { settings: SettingsView }) {
  const form = useServerForm(settings)
  const { update } = form
  return (
    <section className="settings-section" data-testid="settings-server">
      <h3>opencode server</h3>
      <p className="muted small">Saving reconnects to the server. Leave the URL empty to use the server Retake starts itself.</p>
      <ServerSetupNote setup={settings.serverSetup} />
      <form onSubmit={form.submit}>
        <RemoteFields form={form} />
        <LocalFields form={form} />
        <div className="settings-row">
          <button type="submit" className="button button-primary small" data-testid="server-save" disabled={update.isPending}>
            Save and reconnect
          </button>
          {update.isSuccess && <span className="settings-saved">Saved.</span>}
        </div>
      </form>
      {(form.invalid || update.error) && (
        <div className="inline-error" role="alert" data-testid="server-error">
          {form.invalid ?? errorMessage(update.error)}
        </div>
      )}
    </section>
  )
}

function RemoteFields({ form }: { form: ServerForm }) {
  return (
    <>
      <div className="settings-row">
        <input
          type="url"
          aria-label="Remote server URL"
          data-testid="remote-url"
          placeholder="Remote server URL (optional)"
          value={form.url}
          onChange={(e) => form.setUrl(e.target.value)}
        />
      </div>
      <div className="settings-row">
        <input
          type="password"
          aria-label="Remote server password"
          data-testid="remote-password"
          autoComplete="new-password"
          // Write-only: the host never sends it back, only whether one is saved for this server.
          placeholder={form.hint.placeholder}
          value={form.password}
          onChange={(e) => form.setPassword(e.target.value)}
        />
      </div>
      {form.hint.warning && (
        <p className="muted small" data-testid="password-rebind" role="status">
          {form.hint.warning}
        </p>
      )}
    </>
  )
}

function LocalFields({ form }: { form: ServerForm }) {
  return (
    <>
      <div className="settings-row">
        <input
          type="text"
          aria-label="opencode config file"
          data-testid="config-path"
          placeholder="opencode config file (optional, full path)"
          value={form.configPath}
          onChange={(e) => form.setConfigPath(e.target.value)}
        />
      </div>
      <label className="settings-check">
        <input type="checkbox" data-testid="use-user-home" checked={form.useUserHome} onChange={(e) => form.setUseUserHome(e.target.checked)} />
        Use my own opencode setup: your usual config, provider keys, plugins and sessions (off: Retake keeps a separate one in its data dir)
      </label>
    </>
  )
}
