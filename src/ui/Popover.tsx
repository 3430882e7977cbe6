/**
 * A small floating panel under a trigger (the model picker, "Retake with…"). Esc or a click outside
 * closes it, and focus goes back to where it was, so a keyboard user lands on the trigger again.
 * It stays in view (useFloatingPanel): above its trigger when there is no room below, shifted
 * sideways rather than past the window's edge.
 */
import { autoUpdate, flip, offset, shift, size, useFloating, type Placement } from '@floating-ui/react-dom'
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react'

/** Room kept between a panel and the window's (or the timeline's) edge, and below its trigger. */
const EDGE = 8
const GAP = 4

/**
 * Keeps a panel opened under its trigger on screen (Floating UI): placed under the element it sits
 * in (its parent: the action's wrapper, the picker), above it when there is no room below (the
 * last message, over the composer), shifted sideways rather than past an edge and never wider than
 * the room there, so a narrow window never scrolls sideways. Kept placed while the page scrolls or
 * resizes. `ref` is also filled in, for the panel's own uses (outside clicks, focus).
 */
export function useFloatingPanel<T extends HTMLElement>(ref: RefObject<T | null>, placement: Placement = 'bottom-start') {
  const { refs, floatingStyles } = useFloating({
    placement,
    whileElementsMounted: autoUpdate,
    middleware: [
      offset(GAP),
      flip({ padding: EDGE }),
      shift({ padding: EDGE }),
      size({
        padding: EDGE,
        apply({ availableWidth, elements }) {
          elements.floating.style.maxWidth = `${Math.max(0, Math.floor(availableWidth))}px`
        },
      }),
    ],
  })
  const setRef = useCallback(
    (el: T | null) => {
      ref.current = el
      refs.setFloating(el)
      refs.setReference(el?.parentElement ?? null)
    },
    [ref, refs],
  )
  return { ref: setRef, style: floatingStyles }
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
  placement,
  children,
}: {
  label: string
  /** Where it opens from its trigger: under it, from its start (default) or its end (a picker at the right end). */
  placement?: Placement
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
  const floating = useFloatingPanel(ref, placement)
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
    <div
      ref={floating.ref}
      style={floating.style}
      role="dialog"
      aria-label={label}
      className={`palette-popover${className ? ` ${className}` : ''}`}
      data-testid={testid}
      onKeyDown={escapeCloses(onClose)}
    >
      {children}
    </div>
  )
}
