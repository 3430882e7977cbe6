/**
 * Retake's one modal dialog: a native `<dialog>` opened with showModal(). The browser then keeps
 * Tab inside it, makes the page behind it inert and puts it in the top layer (above every sheet
 * and popover, with no z-index to agree on). Around that this component:
 *  - names it (`label`, or `labelledBy` a heading's id);
 *  - puts focus on the safe choice the caller names (`initialFocus`: Cancel in a restore sheet,
 *    the search box in the palette), else on the first control;
 *  - closes on Esc through the caller's onClose, so whether it is open stays React state (the
 *    `cancel` event is stopped; the keydown is handled first so a jsdom test sees the same path);
 *  - gives focus back to what opened it (the focused message for R, the button for a click);
 *  - counts itself as open (open-dialogs.ts): Esc in a dialog closes it, never stops a turn;
 *  - wraps Tab from the last control to the first (Chromium would step out to the browser, or in
 *    Electron to the bare document, before coming back: a press where nothing has focus).
 */
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode, type RefObject } from 'react'
import { useOpenDialog } from './open-dialogs'

export interface DialogProps {
  /** The accessible name, when no heading in the dialog gives it (else `labelledBy`). */
  label?: string
  labelledBy?: string
  onClose(): void
  /** The safe choice to focus first; the first control when absent. */
  initialFocus?: RefObject<HTMLElement | null>
  /** The box's class: `dialog` (centred), `ckpt-sheet` (a side sheet), `viewer`… */
  className: string
  testid?: string
  /** A click on the dimmed page behind closes it (not for sheets whose choices would be lost). */
  closeOnBackdrop?: boolean
  children: ReactNode
}

/** The element that had focus when the dialog rendered first (by the time effects run, it moved). */
function useOpener(): HTMLElement | null {
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null))
  return opener
}

function outside(e: MouseEvent<HTMLDialogElement>): boolean {
  if (e.target !== e.currentTarget) return false
  const r = e.currentTarget.getBoundingClientRect()
  return e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom
}

export function Dialog({ label, labelledBy, onClose, initialFocus, className, testid, closeOnBackdrop = true, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const close = useRef(onClose)
  close.current = onClose
  const opener = useOpener()
  useOpenDialog()
  // A layout effect: modal (and Esc-able) from the first paint, before a key can reach the page.
  useLayoutEffect(() => {
    const dialog = ref.current!
    if (!dialog.open) dialog.showModal()
    ;(initialFocus?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE))?.focus()
    // Closed by the browser itself (a second Esc without a click in between is not cancelable in
    // Chromium): React still has to hear of it.
    const onNativeClose = () => close.current()
    dialog.addEventListener('close', onNativeClose)
    return () => {
      dialog.removeEventListener('close', onNativeClose)
      const active = document.activeElement
      const focusInside = !active || active === document.body || dialog.contains(active)
      if (dialog.open) dialog.close()
      if (focusInside && opener?.isConnected) opener.focus()
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- opened once; the safe choice is the first focus only
  }, [])
  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === 'Tab') return wrapTab(e)
    if (e.key !== 'Escape' || e.defaultPrevented || e.nativeEvent.isComposing) return
    e.preventDefault()
    e.stopPropagation()
    close.current()
  }
  return (
    <dialog
      ref={ref}
      className={className}
      aria-label={label}
      aria-labelledby={labelledBy}
      aria-modal="true"
      data-testid={testid}
      onKeyDown={onKeyDown}
      onCancel={(e) => {
        e.preventDefault()
        close.current()
      }}
      onMouseDown={(e) => closeOnBackdrop && outside(e) && close.current()}
    >
      {children}
    </dialog>
  )
}

/** Tab on the last control goes to the first, Shift+Tab on the first to the last. */
function wrapTab(e: KeyboardEvent<HTMLDialogElement>): void {
  const all = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0 && tabStopOfGroup(el))
  const first = all[0]
  const last = all[all.length - 1]
  if (!first || !last) return
  const from = document.activeElement
  const to = e.shiftKey ? (from === first || from === e.currentTarget ? last : null) : from === last ? first : null
  if (!to) return
  e.preventDefault()
  to.focus()
}

/** A radio is a Tab stop only as its group's checked one (or the first, when none is). */
function tabStopOfGroup(el: HTMLElement): boolean {
  if (!(el instanceof HTMLInputElement) || el.type !== 'radio' || !el.name) return true
  const group = [...(el.closest('dialog')?.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(el.name)}"]`) ?? [])]
  return el === (group.find((r) => r.checked) ?? group[0])
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'
