/**
 * Edit on a user message: change what was asked, then retake it through the same path as ↺ — the
 * restore sheet when the turn (or a later one) changed files, a question when later turns go, at
 * once otherwise — with the same message id and the model chosen now. Attachments stay as they
 * were; the old text stays readable in the previous attempt.
 */
import { useEffect, useRef, useState } from 'react'
import { useEditRequest } from './edit-request-store'
import { typedText } from '../../api/message-text'
import type { MessageWithParts } from '../../api/types'
import { useRetakeContext, type RetakeContextValue } from './retake-context'
import { laterTurns, retakeEntry } from '../../../shared/retake/retake-target'
import { useFloatingPanel } from '../../ui/Popover'

/** The text being edited (null: the edit box is closed), opened too when ↑ in the empty composer asks for this message (edit-request-store.ts). */
function useEditDraft(message: MessageWithParts, ctx: RetakeContextValue | null) {
  const [draft, setDraft] = useState<string | null>(null)
  const requested = useEditRequest((s) => s.messageID === message.info.id)
  useEffect(() => {
    if (!requested) return
    useEditRequest.getState().clear()
    if (ctx && !ctx.locked && ctx.model) setDraft(typedText(message))
  }, [requested, ctx, message])
  return [draft, setDraft] as const
}

export function EditAction({ message }: { message: MessageWithParts }) {
  const ctx = useRetakeContext()
  const [draft, setDraft] = useEditDraft(message, ctx)
  const [confirmLater, setConfirmLater] = useState<number | null>(null)
  if (!ctx) return null
  const id = message.info.id
  const disabled = ctx.locked || !ctx.model

  const submit = () => {
    if (draft === null || !ctx.model) return
    const later = laterTurns(ctx.getMessages(), id)
    const entry = retakeEntry(ctx.changedFiles(id), later)
    if (entry === 'sheet') {
      ctx.openRestoreSheet(id, ctx.model, draft)
      setDraft(null)
    } else if (entry === 'confirm') setConfirmLater(later)
    else go()
  }
  const go = () => {
    const text = draft
    setDraft(null)
    setConfirmLater(null)
    if (text !== null && ctx.model) void ctx.retake(id, ctx.model, undefined, undefined, { edit: text })
  }

  return (
    <span className="edit-action">
      <button
        type="button"
        className="text-button"
        data-testid="edit-message"
        disabled={disabled}
        title="Edit this message and retake it"
        onClick={() => setDraft(typedText(message))}
      >
        ✎ Edit
      </button>
      {draft !== null && <EditPanel draft={draft} onDraft={setDraft} confirmLater={confirmLater} modelLabel={ctx.modelLabel} onSubmit={submit} onConfirm={go} />}
    </span>
  )
}

/** Closes the edit box; when focus was in it, it goes back to the message (not lost on the page). */
function closeTo(panel: HTMLElement | null, onDraft: (draft: null) => void) {
  const message = panel?.closest<HTMLElement>('[data-testid="message"]')
  const hadFocus = !!panel?.contains(document.activeElement)
  onDraft(null)
  if (hadFocus) message?.focus()
}

/** The edit box: Esc cancels, Ctrl/⌘+Enter retakes; when later turns go, Retake asks once more (then confirms). */
function EditPanel(p: { draft: string; onDraft(draft: string | null): void; confirmLater: number | null; modelLabel: string; onSubmit(): void; onConfirm(): void }) {
  const { draft, confirmLater } = p
  const panel = useRef<HTMLDivElement>(null)
  const floating = useFloatingPanel(panel)
  return (
    <div ref={floating.ref} style={floating.style} className="retake-confirm edit-panel" role="dialog" aria-label="Edit and retake" data-testid="edit-panel">
      <textarea
        className="edit-text"
        data-testid="edit-text"
        aria-label="Edited message"
        value={draft}
        autoFocus
        rows={Math.min(12, Math.max(3, draft.split('\n').length + 1))}
        onChange={(e) => p.onDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation()
            closeTo(panel.current, p.onDraft)
          } else if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) p.onSubmit()
        }}
      />
      {confirmLater !== null ? (
        <div>
          The {confirmLater} later turn{confirmLater === 1 ? '' : 's'} will be replaced (kept in the previous attempt).
        </div>
      ) : (
        <div className="muted">Attachments stay as they are. The message is retaken with {p.modelLabel}.</div>
      )}
      <div className="retake-confirm-buttons">
        <button type="button" className="button button-primary small" data-testid="edit-retake" onClick={confirmLater !== null ? p.onConfirm : p.onSubmit}>
          Retake
        </button>
        <button type="button" className="button button-secondary small" onClick={() => closeTo(panel.current, p.onDraft)}>
          Cancel
        </button>
      </div>
    </div>
  )
}
