/**
 * Boot and layout: asks the host who it is and how its server is, opens the project, and marks the
 * root element `data-app-state` = loading | ready | error so tests wait on state, never on sleeps.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { getBridge } from '../bridge'
import { useAppInfo, useServerStatus } from '../api/host'
import type { Scope } from '../api/query-keys'
import { ScopeProvider } from '../api/scope'
import { errorMessage } from '../../shared/unwrap'
import { useUiStore } from '../ui/ui-store'
import { ServerStatusPanel, serverStatusText } from '../features/settings/ServerStatusPanel'
import { ShortcutsSheet } from '../features/palette/ShortcutsKey'
import { ProjectPicker } from './lazy'
import { HostGoneNotice, useHostGone } from './HostGoneNotice'
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

/** What the root element's `data-app-state` says: the host or server failed, still booting, or the workspace's own load state. */
function appStateOf(o: { failed: boolean; booting: boolean; workspace: boolean; load: LoadState }): LoadState {
  return o.failed ? 'error' : o.booting ? 'loading' : o.workspace ? o.load : 'ready'
}

/** Marks the root element with the app state (on the parent of the returned ref's element). */
function useAppStateMark(appState: LoadState) {
  const rootRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const root = rootRef.current?.parentElement
    if (root) root.dataset.appState = appState
  }, [appState])
  return rootRef
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

  const appState = appStateOf({ failed: info.isError || server.data?.state === 'failed', booting: !info.data || !ready || initial.opening, workspace: !!scope, load })
  const rootRef = useAppStateMark(appState)
  const hostGone = useHostGone()

  return (
    <div className={`app${scope ? '' : ' app-single'}`} ref={rootRef}>
      {hostGone && <HostGoneNotice startCommand={info.data?.startCommand} />}
      <ShellContent info={info} server={server} ready={ready} scope={scope} initialError={initial.error} onLoadState={onLoadState} onOpenProject={setProject} />
      <ShortcutsSheet />
    </div>
  )
}

/** The window's main area: the host's error, the server starting, the workspace, or the project picker. */
function ShellContent(p: {
  info: ReturnType<typeof useAppInfo>
  server: ReturnType<typeof useServerStatus>
  ready: boolean
  scope: Scope | null
  initialError: string | null
  onLoadState(s: LoadState): void
  onOpenProject(path: string | null): void
}) {
  const { info, server, scope } = p
  if (info.isError) {
    return (
      <main className="main centered">
        <div className="server-panel" role="alert" data-testid="host-error">
          <div className="server-text">Retake could not reach its host.</div>
          <pre className="server-error">{errorMessage(info.error)}</pre>
        </div>
      </main>
    )
  }
  if (!p.ready) {
    return (
      <main className="main centered">
        <ServerStatusPanel status={server.data} />
      </main>
    )
  }
  if (scope) {
    return (
      <ScopeProvider scope={scope}>
        <Workspace
          onLoadState={p.onLoadState}
          sidebarTop={<ProjectHeader project={scope.directory} onSwitch={p.onOpenProject} />}
          sidebarBottom={<div className="sidebar-foot">{serverStatusText(server.data)}</div>}
        />
      </ScopeProvider>
    )
  }
  return (
    <main className="main centered">
      {p.initialError && (
        <div className="inline-error" role="alert" data-testid="initial-project-error">
          {p.initialError}
        </div>
      )}
      <ProjectPicker canPickFolder={info.data?.canPickFolder ?? false} onOpen={p.onOpenProject} />
    </main>
  )
}

/** The sidebar's top: the open project's name and path, and Switch project (which also drops it from the URL). */
function ProjectHeader({ project, onSwitch }: { project: string; onSwitch(path: null): void }) {
  return (
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
          onSwitch(null)
          keepProjectInUrl(null)
        }}
      >
        Switch project
      </button>
    </div>
  )
}
