/**
 * A small floating panel under a trigger (the model picker, "Retry with…"). Esc or a click outside
 * closes it, and focus goes back to where it was, so a keyboard user lands on the trigger again.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react'

/** On unmount, focus goes back to what had it when the panel opened (unless the user moved it). */
export function useFocusReturn(): void {
  // Read while rendering: by the time effects run, the search box has taken focus (autoFocus).
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null))
  useEffect(
    () => () => {
      const lost = !document.activeElement || document.activeElement === document.body
      if (lost && opener?.isConnected) opener.focus()
    },
    [opener],
  )
}

/** Esc closes the panel; handled here so the window's Esc (stop the running turn) does not also fire. */
export function escapeCloses(onClose: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return
    e.preventDefault()
    e.stopPropagation()
    onClose()
  }
}

export function Popover({
  label,
  onClose,
  trigger,
  className,
  testid,
  children,
}: {
  label: string
  onClose(): void
  /** Clicks on the trigger are its own (it toggles); they must not count as "outside". */
  trigger?: RefObject<HTMLElement | null>
  className?: string
  testid?: string
  children: ReactNode
}) {
  const ref = useRef<HTMLDivElement>(null)
  const close = useRef(onClose)
  close.current = onClose
  useFocusReturn()
  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      const t = e.target as Node
      if (ref.current?.contains(t) || trigger?.current?.contains(t)) return
      close.current()
    }
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [trigger])
  return (
    <div ref={ref} role="dialog" aria-label={label} className={`palette-popover${className ? ` ${className}` : ''}`} data-testid={testid} onKeyDown={escapeCloses(onClose)}>
      {children}
    </div>
  )
}
