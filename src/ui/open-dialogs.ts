/**
 * Retake's own open dialogs, counted as they mount. Esc stops a running turn only when none is open
 * (src/features/chat/use-escape-stops.ts). A count kept by the app, not a look at the page: the page
 * also holds a model's answers, and what they contain is not Retake's to trust.
 */
import { useLayoutEffect } from 'react'

let open = 0

/** Counts the calling dialog as open while it is mounted (a layout effect, as useEscape). */
export function useOpenDialog(): void {
  useLayoutEffect(() => {
    open++
    return () => {
      open--
    }
  }, [])
}

export function anyDialogOpen(): boolean {
  return open > 0
}
