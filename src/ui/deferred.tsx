/**
 * A part of the window that is opened, not shown at start (a dialog, a panel, a sheet): its own
 * chunk, fetched when first drawn, so the first load is the shell only. Until the chunk has
 * arrived nothing is drawn in its place (the click that opened it is not lost). Each folder that
 * opens such parts says which in its own `lazy.tsx`.
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
export function deferred<C extends ComponentType<any>>(load: () => Promise<C>) {
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
