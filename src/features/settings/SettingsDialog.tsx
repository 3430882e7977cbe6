/**
 * Settings: extra folders (checkpointed with every turn, or shared: never rolled back), excludes,
 * how Retake reaches opencode (remote URL + write-only password, config file, own HOME), and
 * notifications, and how Retake looks (theme, text size).
 * Each section saves on its own: folder changes reopen the checkpoint stores, server changes
 * reconnect, and neither should happen because the other was edited.
 */
import { Dialog } from '../../ui/Dialog'
import { useState } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import type { Settings } from '../../../shared/ipc-contract'
import { excludesText, parseExcludes } from '../checkpoints'
import { AppearanceSection } from './AppearanceSection'
import { FoldersSection } from './FoldersSection'
import { NotificationsSection } from './NotificationsSection'
import { ServerSection } from './ServerSection'
import { useSettings, useUpdateSettings } from './use-settings'
import '../../styles/checkpoints.css'

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

export function SettingsDialog({ project, onClose }: { project: string; onClose(): void }) {
  const settings = useSettings()
  return (
    <Dialog className="dialog settings-dialog" labelledBy="settings-title" testid="settings-dialog" onClose={onClose}>
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
      <AppearanceSection />
    </Dialog>
  )
}
