/**
 * Attachments in the composer: the attach button (a hidden file input), the chips with a remove
 * button, a flag on each file the chosen model cannot take with "Switch model" as the way on, and the
 * limit messages. Dropping and pasting are wired by ChatView/Composer; this only renders.
 */
import { useEffect, useRef, useState } from 'react'
import type { ModelRef } from '../../../shared/ipc-contract'
import type { ModelAttachmentInfo } from '../../../shared/attachments/file-type'
import type { ModelOption } from '../models'
import { modelsAccepting, neededKinds, supportIssue, type PendingAttachment } from './attachments'
import { ChipLabel } from './AttachmentChips'
import '../../styles/attachments.css'

export function AttachButton({ onFiles, disabled }: { onFiles(files: File[]): void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null)
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="attach-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? [])
          // Reset so picking the same file again fires change again.
          e.target.value = ''
          if (files.length) onFiles(files)
        }}
      />
      <button
        type="button"
        className="button button-secondary att-attach"
        data-testid="attach"
        aria-label="Attach files"
        title="Attach files (or drop / paste them)"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48" />
        </svg>
      </button>
    </>
  )
}

/** A small preview of a pending image (an object URL, released when the chip goes). */
function Thumb({ a }: { a: PendingAttachment }) {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (typeof URL.createObjectURL !== 'function') return
    const u = URL.createObjectURL(new Blob([a.bytes as BlobPart], { type: a.mime }))
    setUrl(u)
    return () => URL.revokeObjectURL(u)
  }, [a])
  return url ? <img className="att-pending-thumb" src={url} alt="" /> : null
}

function SwitchModel({ options, kinds, onChoose }: { options: ModelOption[]; kinds: ReturnType<typeof neededKinds>; onChoose(ref: ModelRef): void }) {
  const [open, setOpen] = useState(false)
  const accepting = modelsAccepting(options, kinds)
  return (
    <span className="att-switch">
      <button
        type="button"
        className="link-button"
        data-testid="switch-model"
        aria-expanded={open}
        onClick={() => {
          // With no model to offer, the picker itself is the way on.
          if (accepting.length === 0) document.querySelector<HTMLElement>('[data-testid="model-picker"]')?.focus()
          else setOpen((o) => !o)
        }}
      >
        Switch model
      </button>
      {open && (
        <ul className="att-switch-menu" role="menu" data-testid="switch-model-menu">
          {accepting.map((o) => (
            <li key={o.key}>
              <button
                type="button"
                role="menuitem"
                onClick={() => {
                  setOpen(false)
                  onChoose(o.ref)
                }}
              >
                {o.modelName} <span className="muted">({o.providerName})</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </span>
  )
}

export function ComposerAttachments({
  attachments,
  notices,
  model,
  options,
  onRemove,
  onDismissNotices,
  onChooseModel,
}: {
  attachments: PendingAttachment[]
  notices: string[]
  model: ModelAttachmentInfo | undefined
  options: ModelOption[]
  onRemove(id: string): void
  onDismissNotices(): void
  onChooseModel(ref: ModelRef): void
}) {
  if (attachments.length === 0 && notices.length === 0) return null
  const flagged = attachments.filter((a) => supportIssue(a, model) !== null)
  const kinds = neededKinds(flagged)
  return (
    <div className="att-composer" data-testid="composer-attachments">
      {notices.length > 0 && <NoticeBar notices={notices} onDismiss={onDismissNotices} />}
      {attachments.length > 0 && (
        <ul className="att-list">
          {attachments.map((a) => (
            <PendingChip key={a.id} a={a} issue={supportIssue(a, model)} onRemove={() => onRemove(a.id)} />
          ))}
        </ul>
      )}
      {flagged.length > 0 && (
        <div className="att-issue" data-testid="model-support-flag">
          {[...new Set(flagged.map((a) => supportIssue(a, model)))].join(' ')}{' '}
          {kinds.length > 0 ? <SwitchModel options={options} kinds={kinds} onChoose={onChooseModel} /> : 'Remove it to send.'}
        </div>
      )}
    </div>
  )
}

/** Why files just added were not attached, until dismissed (or the next add or remove). */
function NoticeBar({ notices, onDismiss }: { notices: string[]; onDismiss(): void }) {
  return (
    <div className="att-notice" role="alert" data-testid="attachment-notice">
      <div>
        {notices.map((n, i) => (
          <div key={i}>{n}</div>
        ))}
      </div>
      <button type="button" className="link-button" aria-label="Dismiss" onClick={onDismiss}>
        ✕
      </button>
    </div>
  )
}

/** One attachment waiting to be sent; flagged when the chosen model cannot take it. */
function PendingChip({ a, issue, onRemove }: { a: PendingAttachment; issue: string | null; onRemove(): void }) {
  return (
    <li className={`att-chip att-pending${issue ? ' att-flagged' : ''}`} data-testid="composer-chip" data-kind={a.kind} title={issue ?? `${a.name} (${a.mime})`}>
      {a.kind === 'image' && <Thumb a={a} />}
      <ChipLabel name={a.name} size={a.size} mime={a.mime} kind={a.kind} />
      {issue && (
        <span className="att-flag" data-testid="chip-flag" aria-label={issue}>
          ⚠
        </span>
      )}
      <button type="button" className="att-remove" data-testid="remove-attachment" aria-label={`Remove ${a.name}`} onClick={onRemove}>
        ✕
      </button>
    </li>
  )
}
