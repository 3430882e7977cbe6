/**
 * Parts of the window that are opened, not shown at start (settings, the attachment viewer, the
 * checkpoints panel, the restore sheet with its diffs, provider keys, the project picker, which a
 * window with its project open never shows, the dialog before a link leaves the app): each is its own chunk,
 * fetched when first opened, so the first load is the shell only (the chat view: see below).
 * Until the chunk has arrived nothing is drawn in their place (they are dialogs; the click that
 * opened them is not lost).
 */
import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react'

/**
 * A chunk that cannot be fetched (browser mode restarted with a new build while the tab stayed
 * open: the old chunk names are gone) says so in its place instead of taking the window down.
 */
function LoadFailed() {
  return (
    <div className="load-failed muted" role="alert" data-testid="chunk-load-failed">
      This part of Retake could not be loaded. Reload the window to get it.
    </div>
  )
}

// `any` only to accept every component's props; each export keeps its component's own prop types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function deferred<C extends ComponentType<any>>(load: () => Promise<C>) {
  const Lazy = lazy(() =>
    load().then(
      (component) => ({ default: component }),
      () => ({ default: LoadFailed as unknown as C }),
    ),
  )
  return function Deferred(props: ComponentProps<C>) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    )
  }
}

// The chat itself (timeline, markdown, composer) is needed at once but not for the first paint: its
// chunk is asked for as soon as this module runs, so it downloads and parses while the shell boots
// and its data is fetched (a longer wait than the chunk), instead of delaying the shell.
const chatView = import('./chat/ChatView')
// Handled where it is used (LoadFailed); this only keeps an early failure from being reported as unhandled.
chatView.catch(() => {})
export const ChatView = deferred(() => chatView.then((m) => m.ChatView))
export const SettingsDialog = deferred(() => import('./settings/SettingsDialog').then((m) => m.SettingsDialog))
export const AttachmentViewer = deferred(() => import('./attachments/AttachmentViewer').then((m) => m.AttachmentViewer))
export const CheckpointsPanel = deferred(() => import('./checkpoints/CheckpointsPanel').then((m) => m.CheckpointsPanel))
export const ProviderKeysDialog = deferred(() => import('./models/ProviderKeysDialog').then((m) => m.ProviderKeysDialog))
export const RestoreSheet = deferred(() => import('./checkpoints/RestoreSheet').then((m) => m.RestoreSheet))
export const ProjectPicker = deferred(() => import('./sessions/ProjectPicker').then((m) => m.ProjectPicker))
export const LinkDialog = deferred(() => import('./chat/LinkDialog').then((m) => m.LinkDialog))
