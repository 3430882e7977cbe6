import { useLayoutEffect } from 'react'
import { useOpenDialog } from './open-dialogs'

/**
 * Escape closes the dialog that calls this (one listener per open dialog). A layout effect, so
 * the listener is there as soon as the dialog is in the page: a passive effect runs a task later,
 * and an Esc pressed in between (a lazy sheet arriving under the user's fingers) was lost.
 * The dialog counts as open (src/ui/open-dialogs.ts), so Esc closes it rather than stopping a turn.
 */
export function useEscape(onClose: () => void): void {
  useOpenDialog()
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose()
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])
}
