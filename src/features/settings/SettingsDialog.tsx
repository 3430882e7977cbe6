/**
 * Settings: extra folders (checkpointed with every turn, or shared: never rolled back), excludes,
 * how Retake reaches opencode (remote URL + write-only password, config file, own HOME), and
 * notifications.
 * Each section saves on its own: folder changes reopen the checkpoint stores, server changes
 * reconnect, and neither should happen because the other was edited.
 */
import { useEscape } from '../../ui/use-escape'
import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { getBridge } from '../../bridge'
import { errorMessage } from '../../../shared/unwrap'
import type { ChannelInput, Settings, SettingsView } from '../../../shared/ipc-contract'
import { addFolder, checkNewFolder, excludesText, parseExcludes, passwordHint, removeFolder, serverPatch, setShared } from '../checkpoints/settings-logic'
import { NotificationsSection } from './NotificationsSection'
import { ServerSetupNote } from './ServerSetupNote'
import '../../styles/checkpoints.css'
import { checkpointKeys, hostKeys } from '../../api/query-keys'

const settingsKey = hostKeys.settings

function useSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: () => getBridge().invoke('settings.get', {}) })
}

function useUpdateSettings() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (patch: ChannelInput<'settings.update'>) => getBridge().invoke('settings.update', patch),
    onSuccess: (next, patch) => {
      qc.setQueryData<Settings>(settingsKey, next)
      // New roots or excludes: what the checkpoint queries showed was for the old ones.
      if (patch.extraFolders || patch.excludes) void qc.invalidateQueries({ queryKey: checkpointKeys.any })
    },
  })
}

function FoldersSection({ settings, project }: { settings: Settings; project: string }) {
  const update = useUpdateSettings()
  const [path, setPath] = useState('')
  const [shared, setSharedNew] = useState(false)
  const [invalid, setInvalid] = useState<string | null>(null)
  const folders = settings.extraFolders
  return (
    <section className="settings-section" data-testid="settings-folders">
      <h3>Extra folders</h3>
      <p className="muted small">
        Checkpointed with every turn and rolled back with the project. <strong>Shared</strong> folders are never recorded and never rolled back.
      </p>
      {folders.length > 0 ? (
        <ul className="settings-folders">
          {folders.map((f) => (
            <li key={f.path} data-testid="settings-folder">
              <span className="ckpt-path" title={f.path}>
                {f.path}
              </span>
              <label>
                <input
                  type="checkbox"
                  data-testid="folder-shared"
                  checked={f.shared}
                  disabled={update.isPending}
                  onChange={(e) => update.mutate({ extraFolders: setShared(folders, f.path, e.target.checked) })}
                />
                shared
              </label>
              <button
                type="button"
                className="button button-secondary small"
                data-testid="folder-remove"
                disabled={update.isPending}
                onClick={() => update.mutate({ extraFolders: removeFolder(folders, f.path) })}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">None: only the project folder is checkpointed.</p>
      )}
      <form
        className="settings-row"
        onSubmit={(e) => {
          e.preventDefault()
          const checked = checkNewFolder(path, folders, project)
          if (!checked.ok) return setInvalid(checked.error)
          setInvalid(null)
          update.mutate({ extraFolders: addFolder(folders, checked.path, shared) }, { onSuccess: () => (setPath(''), setSharedNew(false)) })
        }}
      >
        <input type="text" aria-label="Folder path" data-testid="folder-path" placeholder="/full/path/to/folder" value={path} onChange={(e) => setPath(e.target.value)} />
        <label className="settings-check">
          <input type="checkbox" data-testid="folder-new-shared" checked={shared} onChange={(e) => setSharedNew(e.target.checked)} />
          shared
        </label>
        <button type="submit" className="button button-secondary small" data-testid="folder-add" disabled={update.isPending}>
          Add folder
        </button>
      </form>
      {(invalid || update.error) && (
        <div className="inline-error" role="alert" data-testid="folder-error">
          {invalid ?? errorMessage(update.error)}
        </div>
      )}
    </section>
  )
}

function ExcludesSection({ settings }: { settings: Settings }) {
  const update = useUpdateSettings()
  const [text, setText] = useState(() => excludesText(settings.excludes))
  const dirty = excludesText(parseExcludes(text)) !== excludesText(settings.excludes)
  return (
    <section className="settings-section" data-testid="settings-excludes">
      <h3>Excludes</h3>
      <p className="muted small">Gitignore-style patterns, one per line. Matching files (and whatever .gitignore ignores) are not recorded and never rolled back.</p>
      <textarea aria-label="Exclude patterns" data-testid="excludes-input" placeholder={'node_modules/\n*.log'} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="settings-row">
        <button
          type="button"
          className="button button-secondary small"
          data-testid="excludes-save"
          disabled={!dirty || update.isPending}
          onClick={() => update.mutate({ excludes: parseExcludes(text) })}
        >
          Save excludes
        </button>
        {update.isSuccess && !dirty && <span className="settings-saved">Saved.</span>}
      </div>
      {update.error && <div className="inline-error">{errorMessage(update.error)}</div>}
    </section>
  )
}

function ServerSection({ settings }: { settings: SettingsView }) {
  const update = useUpdateSettings()
  const [url, setUrl] = useState(settings.remoteUrl ?? '')
  const [password, setPassword] = useState('')
  const [configPath, setConfigPath] = useState(settings.opencodeConfigPath ?? '')
  const [useUserHome, setUseUserHome] = useState(settings.useUserOpencodeHome)
  const [invalid, setInvalid] = useState<string | null>(null)
  const hint = passwordHint({ remoteUrl: url, password }, settings)
  return (
    <section className="settings-section" data-testid="settings-server">
      <h3>opencode server</h3>
      <p className="muted small">Saving reconnects to the server. Leave the URL empty to use the server Retake starts itself.</p>
      <ServerSetupNote setup={settings.serverSetup} />
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const r = serverPatch({ remoteUrl: url, password, configPath, useUserHome })
          if (!r.ok) return setInvalid(r.error)
          setInvalid(null)
          update.mutate(r.patch, { onSuccess: () => setPassword('') })
        }}
      >
        <div className="settings-row">
          <input
            type="url"
            aria-label="Remote server URL"
            data-testid="remote-url"
            placeholder="Remote server URL (optional)"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </div>
        <div className="settings-row">
          <input
            type="password"
            aria-label="Remote server password"
            data-testid="remote-password"
            autoComplete="new-password"
            // Write-only: the host never sends it back, only whether one is saved for this server.
            placeholder={hint.placeholder}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        {hint.warning && (
          <p className="muted small" data-testid="password-rebind" role="status">
            {hint.warning}
          </p>
        )}
        <div className="settings-row">
          <input
            type="text"
            aria-label="opencode config file"
            data-testid="config-path"
            placeholder="opencode config file (optional, full path)"
            value={configPath}
            onChange={(e) => setConfigPath(e.target.value)}
          />
        </div>
        <label className="settings-check">
          <input type="checkbox" data-testid="use-user-home" checked={useUserHome} onChange={(e) => setUseUserHome(e.target.checked)} />
          Use my own opencode setup: your usual config, provider keys, plugins and sessions (off: Retake keeps a separate one in its data dir)
        </label>
        <div className="settings-row">
          <button type="submit" className="button button-primary small" data-testid="server-save" disabled={update.isPending}>
            Save and reconnect
          </button>
          {update.isSuccess && <span className="settings-saved">Saved.</span>}
        </div>
      </form>
      {(invalid || update.error) && (
        <div className="inline-error" role="alert" data-testid="server-error">
          {invalid ?? errorMessage(update.error)}
        </div>
      )}
    </section>
  )
}

export function SettingsDialog({ project, onClose }: { project: string; onClose(): void }) {
  const settings = useSettings()
  useEscape(onClose)
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog settings-dialog" role="dialog" aria-modal="true" aria-labelledby="settings-title" data-testid="settings-dialog">
        <div className="dialog-head">
          <h2 id="settings-title">Settings</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            ✕
          </button>
        </div>
        <p className="muted small">
          Rolled back on restore: the project folder and extra folders. Never rolled back: shared folders, excluded files, files over the size cap, anything outside these folders.
        </p>
        {settings.data ? (
          <>
            <FoldersSection settings={settings.data} project={project} />
            <ExcludesSection settings={settings.data} />
            <ServerSection settings={settings.data} />
            <NotificationsSection />
          </>
        ) : settings.error ? (
          <div className="inline-error" role="alert">
            {errorMessage(settings.error)}
          </div>
        ) : (
          <p className="muted">Loading settings…</p>
        )}
      </div>
    </div>
  )
}
