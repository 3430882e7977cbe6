/**
 * A small floating panel under a trigger (the model picker, "Retry with…"). Esc or a click outside
 * closes it, and focus goes back to where it was, so a keyboard user lands on the trigger again.
 * It stays in view (useStayInView): above its trigger when there is no room below, shifted
 * sideways rather than past the window's edge.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react'

/** The visible box an element can be seen in: the window, cut by every ancestor that clips. */
function clippingBox(el: HTMLElement): { top: number; bottom: number; left: number; right: number } {
  const box = { top: 0, left: 0, bottom: window.innerHeight, right: document.documentElement.clientWidth }
  for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
    const style = getComputedStyle(a)
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue
    const r = a.getBoundingClientRect()
    box.top = Math.max(box.top, r.top)
    box.left = Math.max(box.left, r.left)
    box.bottom = Math.min(box.bottom, r.bottom)
    box.right = Math.min(box.right, r.right)
  }
  return box
}

/**
 * Keeps an absolutely placed panel (under its trigger by CSS) on screen: measured once it is laid
 * out and again when the window resizes. No room below (the last message, over the composer) and
 * more above: it opens above the trigger. Past a side: it shifts back in, so a narrow window never
 * scrolls sideways.
 */
export function useStayInView(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const place = () => {
      Object.assign(el.style, { top: '', bottom: '', marginTop: '', marginBottom: '', translate: '' })
      const box = clippingBox(el)
      const anchor = (el.offsetParent ?? el.parentElement)?.getBoundingClientRect()
      let r = el.getBoundingClientRect()
      if (anchor && r.bottom > box.bottom && anchor.top - box.top > box.bottom - anchor.bottom) {
        const gap = getComputedStyle(el).marginTop
        Object.assign(el.style, { top: 'auto', bottom: '100%', marginTop: '0', marginBottom: gap })
        r = el.getBoundingClientRect()
      }
      let dx = 0
      if (r.right > box.right) dx = box.right - r.right
      if (r.left + dx < box.left) dx = box.left - r.left
      if (dx) el.style.translate = `${Math.round(dx)}px 0`
    }
    place()
    window.addEventListener('resize', place)
    return () => window.removeEventListener('resize', place)
  }, [ref])
}

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
  useStayInView(ref)
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
