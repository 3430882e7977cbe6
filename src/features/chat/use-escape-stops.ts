import { useEffect } from 'react'
import { anyDialogOpen } from '../../ui/open-dialogs'

/**
 * Esc stops the running turn, as in opencode's own app — unless a dialog is open (its own Esc
 * closes it) or the key was already handled (a menu, the session search). Which dialogs are open
 * is Retake's own count (src/ui/open-dialogs.ts), never a query of the page, where a model's answer
 * could put an element that claims to be a dialog.
 */
export function useEscapeStops(running: boolean, stop: () => void): void {
  useEffect(() => {
    if (!running) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return
      if (anyDialogOpen()) return
      stop()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [running, stop])
}
