/** Settings › Extra folders: checkpointed with every turn, or shared (never rolled back). */
import { useState, type FormEvent } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import type { Settings } from '../../../shared/ipc-contract'
import { addFolder, checkNewFolder, removeFolder, setShared } from '../checkpoints'
import { useUpdateSettings, type SettingsUpdate } from './use-settings'

type Folder = Settings['extraFolders'][number]

/** The "add a folder" form's state; a path that does not check out is shown instead of saved. */
function useNewFolder(folders: Folder[], project: string, update: SettingsUpdate) {
  const [path, setPath] = useState('')
  const [shared, setSharedNew] = useState(false)
  const [invalid, setInvalid] = useState<string | null>(null)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const checked = checkNewFolder(path, folders, project)
    if (!checked.ok) return setInvalid(checked.error)
    setInvalid(null)
    update.mutate({ extraFolders: addFolder(folders, checked.path, shared) }, { onSuccess: () => (setPath(''), setSharedNew(false)) })
  }
  return { path, setPath, shared, setSharedNew, invalid, submit }
}

export function FoldersSection({ settings, project }: { settings: Settings; project: string }) {
  const update = useUpdateSettings()
  const folders = settings.extraFolders
  const add = useNewFolder(folders, project, update)
  return (
    <section className="settings-section" data-testid="settings-folders">
      <h3>Extra folders</h3>
      <p className="muted small">
        Checkpointed with every turn and rolled back with the project. <strong>Shared</strong> folders are never recorded and never rolled back.
      </p>
      {folders.length > 0 ? <FolderList folders={folders} update={update} /> : <p className="muted small">None: only the project folder is checkpointed.</p>}
      <form className="settings-row" onSubmit={add.submit}>
        <input type="text" aria-label="Folder path" data-testid="folder-path" placeholder="/full/path/to/folder" value={add.path} onChange={(e) => add.setPath(e.target.value)} />
        <label className="settings-check">
          <input type="checkbox" data-testid="folder-new-shared" checked={add.shared} onChange={(e) => add.setSharedNew(e.target.checked)} />
          shared
        </label>
        <button type="submit" className="button button-secondary small" data-testid="folder-add" disabled={update.isPending}>
          Add folder
        </button>
      </form>
      {(add.invalid || update.error) && (
        <div className="inline-error" role="alert" data-testid="folder-error">
          {add.invalid ?? errorMessage(update.error)}
        </div>
      )}
    </section>
  )
}

function FolderList({ folders, update }: { folders: Folder[]; update: SettingsUpdate }) {
  return (
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
  )
}
