/** A project once the server is ready: the event stream, the session list and the open chat. */
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react'
import { useSessions } from '../api/queries'
import { useScope } from '../api/scope'
import { useApplyProviderKeys } from '../features/models/use-apply-provider-keys'
import { useEventStream } from './use-event-stream'
import { useUiStore } from '../ui/ui-store'
import { useEscape } from '../ui/use-escape'
import { SessionList } from '../features/sessions/SessionList'
import { ChatView, SettingsDialog } from './lazy'
import { CommandPalette } from '../features/palette/CommandPaletteKey'

export type LoadState = 'loading' | 'ready' | 'error'

export function Workspace({ onLoadState, sidebarTop, sidebarBottom }: { onLoadState(state: LoadState): void; sidebarTop: ReactNode; sidebarBottom?: ReactNode }) {
  const scope = useScope()
  const sessions = useSessions()
  const stored = useUiStore((s) => s.selected[scope.directory])
  const selectSession = useUiStore((s) => s.selectSession)
  // A stored selection that no longer exists (deleted elsewhere) falls back to the newest session.
  // While the list (re)loads — e.g. after the server restarted — the stored selection stands, so the
  // open chat and its draft do not flicker to a new conversation.
  // A new conversation (null) stays empty until its first prompt creates the session.
  const exists = !!stored && !!sessions.data?.some((s) => s.id === stored)
  const selected = stored === null ? undefined : !sessions.data ? stored : exists ? stored : sessions.data[0]?.id
  useEventStream(scope, selected)
  useApplyProviderKeys()

  const state: LoadState = sessions.isError ? 'error' : sessions.isSuccess ? 'ready' : 'loading'
  useEffect(() => onLoadState(state), [state, onLoadState])

  // undefined from the list or the chat means "a new conversation".
  // Below ~720 px the sidebar is a drawer (layout.css): choosing a session closes it.
  const [drawerOpen, setDrawerOpen] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const select = (id: string | undefined) => {
    setDrawerOpen(false)
    selectSession(scope.directory, id ?? null)
  }
  const [settingsOpen, setSettingsOpen] = useState(false)
  return (
    <>
      <button
        ref={toggle}
        type="button"
        className="icon-button sidebar-toggle"
        data-testid="sidebar-toggle"
        aria-label={drawerOpen ? 'Hide sessions' : 'Show sessions'}
        aria-expanded={drawerOpen}
        onClick={() => setDrawerOpen((o) => !o)}
      >
        ☰
      </button>
      {drawerOpen && <DrawerEscape toggle={toggle} onClose={() => setDrawerOpen(false)} />}
      {drawerOpen && <div className="sidebar-backdrop" data-testid="sidebar-backdrop" onClick={() => setDrawerOpen(false)} />}
      <aside className={`sidebar${drawerOpen ? ' sidebar-open' : ''}`}>
        {sidebarTop}
        <SessionList selected={selected} onSelect={select} />
        <div className="sidebar-settings">
          <button type="button" className="button button-secondary small" data-testid="open-settings" onClick={() => setSettingsOpen(true)}>
            Settings
          </button>
        </div>
        {sidebarBottom}
      </aside>
      <CommandPalette selected={selected} onSelect={select} onOpenSettings={() => setSettingsOpen(true)} />
      {settingsOpen && <SettingsDialog project={scope.directory} onClose={() => setSettingsOpen(false)} />}
      <main className="main">
        <ChatView key={`${scope.directory}\n${selected ?? 'new'}`} sessionID={selected} onSelect={select} />
      </main>
    </>
  )
}

/**
 * Esc closes the open drawer (a narrow window) and focus goes back to ☰ when it was in the drawer;
 * while it is open Esc is the drawer's, not "stop the running turn" (useEscape counts it as open).
 */
function DrawerEscape({ toggle, onClose }: { toggle: RefObject<HTMLButtonElement | null>; onClose(): void }) {
  useEscape(
    useCallback(() => {
      const active = document.activeElement
      if (!active || active === document.body || active.closest('aside.sidebar')) toggle.current?.focus()
      onClose()
    }, [toggle, onClose]),
  )
  return null
}
