/**
 * The message box. Enter sends, Shift+Enter is a newline, and Enter that confirms an IME composition
 * (Japanese, Chinese, …) never sends. The draft lives in the drafts store, so it survives switching
 * sessions and a failed send.
 */
import { useLayoutEffect, useRef, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react'
import type { ComposerAssist } from './use-slash-menu'

/** Whether this keydown should send: plain Enter outside an IME composition. */
export function isSendKey(
  e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey'> & {
    nativeEvent: { isComposing?: boolean; keyCode?: number }
  },
): boolean {
  if (e.key !== 'Enter' || e.shiftKey || e.altKey) return false
  // keyCode 229 is what some browsers report for the Enter that ends a composition.
  if (e.nativeEvent.isComposing || e.nativeEvent.keyCode === 229) return false
  return true
}

export interface ComposerProps {
  value: string
  onChange(text: string): void
  onSend(): void
  onStop(): void
  busy: boolean
  disabled?: boolean
  error?: string | null
  /** Attachment chips, flags and limit messages, shown above the box. */
  attachments?: ReactNode
  attachButton?: ReactNode
  /** A message with attachments may be sent without text. */
  hasAttachments?: boolean
  /** Why Send is locked (e.g. an attachment the model cannot take); shown as Send's tooltip. */
  blocked?: string | null
  /** Files pasted into the box (images from the clipboard, copied files). */
  onPasteFiles?(files: File[]): void
  /** Slash-command completion: its popup, and keys it takes before the composer's own. */
  assist?: ComposerAssist
  /** ↑ in the empty box: edit the last message sent (false: there is none). */
  onEditLast?(): boolean
}

/** A bare ↑ (no modifier) — with the box empty and nothing attached, it recalls the last message. */
function isBareArrowUp(e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'altKey' | 'ctrlKey' | 'metaKey'>): boolean {
  return e.key === 'ArrowUp' && !e.shiftKey && !e.altKey && !e.metaKey && !e.ctrlKey
}

/** The box grows with its text up to 240px, then scrolls. */
function useAutoGrow(value: string) {
  const ref = useRef<HTMLTextAreaElement>(null)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`
  }, [value])
  return ref
}

/** The box's own keys (after the slash menu's): bare ↑ in an empty box recalls the last message, Enter sends; pasted files are attached. */
function boxHandlers(p: ComposerProps, canSend: boolean) {
  const { value, hasAttachments = false, assist, onEditLast, onSend, onPasteFiles } = p
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (assist?.onKeyDown(e)) return
    if (value === '' && !hasAttachments && isBareArrowUp(e)) {
      if (onEditLast?.()) e.preventDefault()
      return
    }
    if (!isSendKey(e)) return
    e.preventDefault()
    if (canSend) onSend()
  }
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(e.clipboardData?.files ?? [])
    // Only files are taken over; pasted text goes into the box as usual.
    if (!onPasteFiles || files.length === 0) return
    e.preventDefault()
    onPasteFiles(files)
  }
  return { onKeyDown, onPaste }
}

export function Composer(p: ComposerProps) {
  const { value, onChange, onSend, busy, disabled, error, attachments, attachButton, hasAttachments = false, blocked, onPasteFiles, assist } = p
  const ref = useAutoGrow(value)
  const canSend = !disabled && !blocked && (value.trim().length > 0 || hasAttachments)
  const { onKeyDown, onPaste } = boxHandlers(p, canSend)

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault()
        if (canSend) onSend()
      }}
    >
      {error && (
        <div className="composer-error" role="alert" data-testid="composer-error">
          {error}
        </div>
      )}
      {assist?.notice}
      {attachments}
      <div className="composer-box">
        {assist?.popup}
        <textarea
          {...assist?.inputProps}
          ref={ref}
          data-testid="composer"
          aria-label="Message"
          placeholder="Ask anything…"
          rows={1}
          autoFocus
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <ComposerButtons
          attachButton={attachButton}
          busy={busy}
          onStop={() => {
            p.onStop()
            // Stop goes away with the turn: focus stays in the box rather than falling to the page.
            ref.current?.focus()
          }}
          canSend={canSend}
          blocked={blocked}
        />
      </div>
      <div className="composer-hint">Enter to send · Shift+Enter for a new line{onPasteFiles ? ' · drop or paste files to attach' : ''}</div>
    </form>
  )
}

function ComposerButtons({ attachButton, busy, onStop, canSend, blocked }: { attachButton: ReactNode; busy: boolean; onStop(): void; canSend: boolean; blocked?: string | null }) {
  return (
    <div className="composer-buttons">
      {attachButton}
      {busy && (
        <button type="button" className="button button-secondary" data-testid="stop" onClick={onStop}>
          Stop
        </button>
      )}
      <button type="submit" className="button button-primary" data-testid="send" disabled={!canSend} title={blocked ?? undefined}>
        Send
      </button>
    </div>
  )
}
