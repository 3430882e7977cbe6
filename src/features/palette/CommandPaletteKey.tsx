/**
 * Ctrl/⌘+K anywhere in the window toggles the command palette. Only this listener is in the first
 * load: the palette itself (and cmdk) is fetched on the first press.
 */
import { lazy, Suspense, useEffect, useState } from 'react'
import type { CommandPaletteProps } from './CommandPalette'

export const isPaletteKey = (e: KeyboardEvent) => e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey

const PaletteDialog = lazy(() => import('./CommandPalette').then((m) => ({ default: m.PaletteDialog })))

/** Mounted once per project by the workspace. */
export function CommandPalette(props: CommandPaletteProps) {
  const [open, setOpen] = useState(false)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isPaletteKey(e) || e.isComposing) return
      // The browser's own Ctrl+K (focus its search bar) would take the keys away from the window.
      e.preventDefault()
      setOpen((o) => !o)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <PaletteDialog {...props} onClose={() => setOpen(false)} />
    </Suspense>
  )
}
