import { useEffect } from 'react'

/**
 * Esc stops the running turn, as in opencode's own app — unless a dialog is open (its own Esc
 * closes it) or the key was already handled (a menu, the session search).
 */
export function useEscapeStops(running: boolean, stop: () => void): void {
  useEffect(() => {
    if (!running) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return
      if (document.querySelector('[aria-modal="true"]')) return
      stop()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [running, stop])
}
