/**
 * Attachments in the timeline: an inlined text file or a real file part shows as a chip (name, size,
 * type) under the user's text, never as a wall of text; images also show inline. A click opens the
 * viewer with the exact bytes that were sent.
 */
import { memo, useCallback, useState } from 'react'
import type { FileKind } from '../../../shared/attachments/file-type'
import { formatBytes, type ShownAttachment } from './attachments'
import { AttachmentViewer } from './lazy'
import '../../styles/attachments.css'

/** A short badge (the extension, else the kind): text, so it renders without an emoji font. */
export function badgeOf(name: string, kind: FileKind): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  const ext = base.includes('.') ? base.split('.').pop()! : ''
  if (ext && ext.length <= 4) return ext.toUpperCase()
  return kind === 'image' ? 'IMG' : kind === 'pdf' ? 'PDF' : kind === 'text' ? 'TXT' : 'BIN'
}

/** A short type label: the mime's subtype ("markdown", "csv", "png"), which users recognise. */
export function typeLabel(mime: string): string {
  const sub = mime.toLowerCase().split(';')[0]!.split('/')[1] ?? mime
  return sub.replace(/^x-/, '').replace(/^vnd\./, '')
}

/** Name · size · type, shared by the composer and timeline chips. */
export function ChipLabel({ name, size, mime, kind }: { name: string; size: number | null; mime: string; kind: FileKind }) {
  return (
    <>
      <span className={`att-icon att-icon-${kind}`} aria-hidden="true">
        {badgeOf(name, kind)}
      </span>
      <span className="att-name" title={name}>
        {name}
      </span>
      <span className="att-meta">
        {size !== null ? `${formatBytes(size)} · ` : ''}
        {typeLabel(mime)}
      </span>
    </>
  )
}

export const AttachmentChip = memo(function AttachmentChip({ attachment }: { attachment: ShownAttachment }) {
  const [open, setOpen] = useState(false)
  const close = useCallback(() => setOpen(false), [])
  return (
    <div className="att-timeline" data-testid="attachment" data-inline={attachment.inline ? 'true' : 'false'}>
      {attachment.imageUrl && (
        <button type="button" className="att-thumb" onClick={() => setOpen(true)} aria-label={`Open ${attachment.name}`}>
          <img src={attachment.imageUrl} alt={attachment.name} data-testid="attachment-image" />
        </button>
      )}
      <button type="button" className="att-chip" data-testid="attachment-chip" title={`${attachment.name} (${attachment.mime})`} onClick={() => setOpen(true)}>
        <ChipLabel name={attachment.name} size={attachment.size} mime={attachment.mime} kind={attachment.kind} />
      </button>
      {open && <AttachmentViewer attachment={attachment} onClose={close} />}
    </div>
  )
})
