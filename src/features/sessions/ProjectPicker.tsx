/** Opening a project: the native dialog where the host has one, a validated path field otherwise, and recents. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { getBridge } from '../../bridge'
import { useRecentProjects } from '../../api/host'
import { hostKeys } from '../../api/query-keys'
import { errorMessage } from '../../../shared/unwrap'
import type { RecentProject } from '../../../shared/ipc-contract'
import { lazy, Suspense, useState } from 'react'

// Opened on Browse… only: its own chunk.
const FolderBrowser = lazy(() => import('./FolderBrowser').then((m) => ({ default: m.FolderBrowser })))

/** Open by path, pick with the native dialog, forget a recent one; an opened project goes to the top of the recents. */
function useProjectMutations(onOpen: (path: string) => void) {
  const qc = useQueryClient()
  const opened = (p: RecentProject | null) => {
    if (!p) return
    void qc.invalidateQueries({ queryKey: hostKeys.recent })
    onOpen(p.path)
  }
  const open = useMutation({ mutationFn: (p: string) => getBridge().invoke('projects.open', { path: p }), onSuccess: opened })
  const pick = useMutation({ mutationFn: () => getBridge().invoke('projects.pick', {}), onSuccess: opened })
  const forget = useMutation({
    mutationFn: (p: string) => getBridge().invoke('projects.forget', { path: p }),
    onSuccess: (list) => qc.setQueryData(hostKeys.recent, list),
  })
  return { open, pick, forget, error: open.error ?? pick.error ?? forget.error }
}

export function ProjectPicker({ canPickFolder, onOpen }: { canPickFolder: boolean; onOpen(path: string): void }) {
  const recent = useRecentProjects()
  const [path, setPath] = useState('')
  const [browsing, setBrowsing] = useState(false)
  const { open, pick, forget, error } = useProjectMutations(onOpen)

  return (
    <div className="project-picker" data-testid="project-picker">
      <div className="brand">Retake</div>
      <h1>Open a project</h1>
      <p className="muted">Retake works in one folder at a time; opencode runs its tools there.</p>
      {canPickFolder ? (
        <button type="button" className="button button-primary" data-testid="open-project" disabled={pick.isPending} onClick={() => pick.mutate()}>
          Open folder…
        </button>
      ) : (
        <PathForm path={path} onPath={setPath} browsing={browsing} onBrowse={() => setBrowsing((b) => !b)} open={open} />
      )}
      {!canPickFolder && browsing && (
        <Suspense fallback={null}>
          <FolderBrowser start={path.trim() || undefined} onNavigate={setPath} onOpen={(p) => open.mutate(p)} />
        </Suspense>
      )}
      {error && (
        <div className="inline-error" role="alert" data-testid="project-error">
          {errorMessage(error)}
        </div>
      )}
      {recent.data && recent.data.length > 0 && <RecentList recent={recent.data} onOpen={(p) => open.mutate(p)} onForget={(p) => forget.mutate(p)} />}
    </div>
  )
}

/** Where the host has no folder dialog: a path to type (or browse to). */
function PathForm(p: { path: string; onPath(path: string): void; browsing: boolean; onBrowse(): void; open: ReturnType<typeof useProjectMutations>['open'] }) {
  const { path, open } = p
  return (
    <form
      className="path-form"
      onSubmit={(e) => {
        e.preventDefault()
        if (path.trim()) open.mutate(path.trim())
      }}
    >
      <input
        data-testid="project-path"
        aria-label="Project folder path"
        placeholder="~/code/my-app"
        value={path}
        onChange={(e) => p.onPath(e.target.value)}
        aria-invalid={open.isError}
      />
      <button type="submit" className="button button-primary" data-testid="open-project" disabled={!path.trim() || open.isPending}>
        Open
      </button>
      <button type="button" className="button button-secondary" data-testid="browse-folders" aria-expanded={p.browsing} onClick={p.onBrowse}>
        Browse…
      </button>
    </form>
  )
}

function RecentList({ recent, onOpen, onForget }: { recent: RecentProject[]; onOpen(path: string): void; onForget(path: string): void }) {
  return (
    <div className="recent">
      <h2>Recent</h2>
      <ul>
        {recent.map((p) => (
          <li key={p.path} data-testid="recent-project">
            <button type="button" className="recent-open" title={p.path} onClick={() => onOpen(p.path)}>
              <span className="recent-name">{p.name}</span>
              <span className="recent-path">{p.path}</span>
            </button>
            <button type="button" className="icon-button" aria-label={`Forget ${p.name}`} onClick={() => onForget(p.path)}>
              ✕
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
