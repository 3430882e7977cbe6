/**
 * Boot and layout: asks the host who it is and how its server is, opens the project, and marks the
 * root element `data-app-state` = loading | ready | error so tests wait on state, never on sleeps.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { getBridge } from '../bridge'
import { useAppInfo, useServerStatus } from '../api/host'
import { ScopeProvider } from '../api/scope'
import { errorMessage } from '../../shared/unwrap'
import { useUiStore } from '../ui/ui-store'
import { ServerStatusPanel, serverStatusText } from '../features/settings/ServerStatusPanel'
import { ShortcutsSheet } from '../features/palette/ShortcutsKey'
import { ProjectPicker } from '../features/lazy'
import { Workspace, type LoadState } from './Workspace'

/** Bumps each time the server becomes ready, so caches of a previous server process are not reused. */
function useConnectionEpoch(ready: boolean): number {
  const [epoch, setEpoch] = useState(0)
  useEffect(() => {
    if (ready) setEpoch((e) => e + 1)
  }, [ready])
  return epoch
}

/** The project folder named in the window's URL (`?project=`), if any. */
function projectInUrl(): string | undefined {
  return new URLSearchParams(window.location.search).get('project') ?? undefined
}

/** The open project goes in the URL, so a reload (or a bookmark) comes back to it, not the picker. */
function keepProjectInUrl(project: string | null): void {
  const url = new URL(window.location.href)
  if ((url.searchParams.get('project') ?? null) === project) return
  if (project) url.searchParams.set('project', project)
  else url.searchParams.delete('project')
  window.history.replaceState(window.history.state, '', url)
}

function useInitialProject(initial: string | undefined) {
  const setProject = useUiStore((s) => s.setProject)
  const [state, setState] = useState<'idle' | 'opening' | 'done'>('idle')
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (state !== 'idle' || initial === undefined) return
    setState('opening')
    getBridge()
      .invoke('projects.open', { path: initial })
      .then((p) => setProject(p.path))
      .catch((err) => setError(errorMessage(err)))
      .finally(() => setState('done'))
  }, [initial, state, setProject])
  return { opening: state === 'opening', error }
}

export function AppShell() {
  const info = useAppInfo()
  const server = useServerStatus()
  const project = useUiStore((s) => s.project)
  const setProject = useUiStore((s) => s.setProject)
  const ready = server.data?.state === 'ready'
  const epoch = useConnectionEpoch(ready)
  // The project in the window's URL (kept there across reloads) wins over the one the app was started with.
  const initial = useInitialProject(info.data ? (projectInUrl() ?? info.data.initialProject) : undefined)
  useEffect(() => {
    if (project) keepProjectInUrl(project)
  }, [project])
  const [load, setLoad] = useState<LoadState>('loading')
  const onLoadState = useCallback((s: LoadState) => setLoad(s), [])

  // No session is shown before app.info: it brings the key that tells Retake's attachment blocks apart.
  const hasInfo = Boolean(info.data)
  const scope = useMemo(() => (project && ready && epoch > 0 && hasInfo ? { connection: `server-${epoch}`, directory: project } : null), [project, ready, epoch, hasInfo])

  const appState: LoadState = info.isError || server.data?.state === 'failed' ? 'error' : !info.data || !ready || initial.opening ? 'loading' : scope ? load : 'ready'

  const rootRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const root = rootRef.current?.parentElement
    if (root) root.dataset.appState = appState
  }, [appState])

  const projectHeader = project ? (
    <div className="project-head" data-testid="project-head">
      <div className="brand">Retake</div>
      <div className="project-name" title={project}>
        {project.split(/[\\/]/).filter(Boolean).pop() ?? project}
      </div>
      {/* Right-to-left so a long path is cut at its start; the LRM mark keeps the slashes in place. */}
      <div className="project-path muted" title={project}>
        {`\u200e${project}\u200e`}
      </div>
      <button
        type="button"
        className="button button-secondary small"
        data-testid="switch-project"
        onClick={() => {
          setProject(null)
          keepProjectInUrl(null)
        }}
      >
        Switch project
      </button>
    </div>
  ) : null

  let content: ReactNode
  if (info.isError) {
    content = (
      <main className="main centered">
        <div className="server-panel" role="alert" data-testid="host-error">
          <div className="server-text">Retake could not reach its host.</div>
          <pre className="server-error">{errorMessage(info.error)}</pre>
        </div>
      </main>
    )
  } else if (!ready) {
    content = (
      <main className="main centered">
        <ServerStatusPanel status={server.data} />
      </main>
    )
  } else if (scope) {
    content = (
      <ScopeProvider scope={scope}>
        <Workspace onLoadState={onLoadState} sidebarTop={projectHeader} sidebarBottom={<div className="sidebar-foot">{serverStatusText(server.data)}</div>} />
      </ScopeProvider>
    )
  } else {
    content = (
      <main className="main centered">
        {initial.error && (
          <div className="inline-error" role="alert" data-testid="initial-project-error">
            {initial.error}
          </div>
        )}
        <ProjectPicker canPickFolder={info.data?.canPickFolder ?? false} onOpen={setProject} />
      </main>
    )
  }

  return (
    <div className={`app${scope ? '' : ' app-single'}`} ref={rootRef}>
      {content}
      <ShortcutsSheet />
    </div>
  )
}
