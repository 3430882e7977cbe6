/**
 * Browser mode's folder chooser (the desktop app has the native dialog): walk the host's folders
 * from home, see which look like projects, open one. The host lists folder names only.
 */
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { getBridge } from '../../bridge'
import { errorMessage } from '../../../shared/unwrap'
import { hostKeys } from '../../api/query-keys'

export function FolderBrowser({ start, onNavigate, onOpen }: { start?: string; onNavigate(path: string): void; onOpen(path: string): void }) {
  const [path, setPath] = useState<string | undefined>(start)
  const [showHidden, setShowHidden] = useState(false)
  const listing = useQuery({
    queryKey: hostKeys.browse(path),
    queryFn: () => getBridge().invoke('projects.browse', path ? { path } : {}),
  })
  const go = (p: string) => {
    setPath(p)
    onNavigate(p)
  }
  const data = listing.data
  const folders = data?.folders.filter((f) => showHidden || !f.hidden) ?? []
  return (
    <div className="folder-browser" data-testid="folder-browser">
      <div className="folder-browser-head">
        <button type="button" className="icon-button" aria-label="Parent folder" data-testid="folder-up" disabled={!data?.parent} onClick={() => data?.parent && go(data.parent)}>
          ↑
        </button>
        <span className="folder-browser-path" data-testid="folder-path" title={data?.path}>
          {data?.path ?? '…'}
        </span>
        <label className="muted folder-hidden-toggle">
          <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} /> hidden
        </label>
      </div>
      {listing.isError && (
        <div className="inline-error" role="alert">
          {errorMessage(listing.error)}
        </div>
      )}
      <ul className="folder-list" role="listbox" aria-label="Folders">
        {folders.map((f) => (
          <li key={f.path}>
            <button type="button" role="option" aria-selected={false} className="folder-item" data-testid="folder-item" data-project={f.project} onClick={() => go(f.path)}>
              <span aria-hidden>📁</span> {f.name}
              {f.project && <span className="folder-project-badge">project</span>}
            </button>
          </li>
        ))}
        {data && folders.length === 0 && <li className="muted">No subfolders</li>}
        {data?.truncated && <li className="muted">More folders than shown: type the path</li>}
      </ul>
      <button type="button" className="button button-primary" data-testid="folder-open" disabled={!data} onClick={() => data && onOpen(data.path)}>
        Open this folder
      </button>
    </div>
  )
}
