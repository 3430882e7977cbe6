/**
 * `?` (outside a text field, where it is just a character) opens the list of the app's keys and
 * slash commands. Mounted once for the whole app; the sheet itself is fetched on the first `?`.
 */
import { lazy, Suspense, useEffect, useState } from 'react'

const Sheet = lazy(() => import('./ShortcutsSheet').then((m) => ({ default: m.Sheet })))

/** Whether a key event comes from somewhere that types text (so `?` must stay a character). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type)
  return false
}

export function ShortcutsSheet() {
  const [open, setOpen] = useState(false)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || isTypingTarget(e.target)) return
      e.preventDefault()
      setOpen(true)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <Sheet onClose={() => setOpen(false)} />
    </Suspense>
  )
}
