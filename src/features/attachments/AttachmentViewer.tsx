/**
 * The attachment viewer: highlighted code, rendered markdown with a source toggle, CSV as a table,
 * images inline; copy and save-as. What it shows (and saves) is exactly the bytes that were sent:
 * text goes into the DOM as text (CR and BOM survive), and highlighted HTML escapes CR as `&#13;`
 * because the HTML parser would otherwise fold CRLF into LF.
 */
import { useMemo, useState, useSyncExternalStore } from 'react'
import { createPortal } from 'react-dom'
import { formatBytes, highlightLanguage, parseCsv, viewModeOf, type ShownAttachment } from './attachments'
import { bytesToDataUrl } from '../../../shared/attachments/inlined-attachment'
import { grammarVersion, highlightCode, subscribeGrammars } from '../../ui/markdown/highlight'
import { Markdown } from '../../ui/markdown/Markdown'
import { copyText } from '../../ui/CopyButton'
import { Dialog } from '../../ui/Dialog'
import '../../styles/attachments.css'

/** Above this, highlighting would freeze the window for a moment: plain text instead. */
const HIGHLIGHT_MAX_CHARS = 200_000
const TABLE_MAX_ROWS = 2_000

/** Saves bytes under a name through a Blob and `<a download>` (no host call, works in both hosts). */
export function saveBytes(bytes: Uint8Array, name: string, mime: string): void {
  const blob = new Blob([bytes as BlobPart], { type: mime || 'application/octet-stream' })
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.rel = 'noopener'
  document.body.appendChild(a)
  a.click()
  a.remove()
  // Revoked a little later: the download starts asynchronously in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function highlighted(text: string, language: string): string {
  // Plain until the grammar has loaded (src/ui/markdown/highlight.ts); the viewer renders again then.
  const html = highlightCode(text, language) ?? escapeHtml(text)
  return html.replace(/\r/g, '&#13;')
}

function Source({ text, language }: { text: string; language: string | null }) {
  const grammars = useSyncExternalStore(subscribeGrammars, grammarVersion)
  const html = useMemo(
    () => (language && text.length <= HIGHLIGHT_MAX_CHARS ? highlighted(text, language) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a grammar that arrived highlights again
    [text, language, grammars],
  )
  if (html !== null) {
    return (
      <pre className="viewer-source hljs" data-testid="viewer-source">
        <code dangerouslySetInnerHTML={{ __html: html }} />
      </pre>
    )
  }
  return (
    <pre className="viewer-source" data-testid="viewer-source">
      {text}
    </pre>
  )
}

function CsvTable({ text, tabs }: { text: string; tabs: boolean }) {
  const rows = useMemo(() => parseCsv(text, tabs ? '\t' : ','), [text, tabs])
  const [head, ...body] = rows
  const shown = body.slice(0, TABLE_MAX_ROWS)
  return (
    <div className="viewer-table-wrap">
      <table className="viewer-table" data-testid="viewer-table">
        {head && (
          <thead>
            <tr>
              {head.map((c, i) => (
                <th key={i}>{c}</th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {shown.map((r, i) => (
            <tr key={i}>
              {r.map((c, j) => (
                <td key={j}>{c}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {body.length > shown.length && (
        <div className="muted">
          Showing {shown.length} of {body.length} rows; the source has them all.
        </div>
      )}
    </div>
  )
}

type ViewMode = ReturnType<typeof viewModeOf> | null
type CopyState = 'idle' | 'copied' | 'failed'

export function AttachmentViewer({ attachment, onClose }: { attachment: ShownAttachment; onClose(): void }) {
  const { name, mime, text, bytes } = attachment
  const mode = text !== null ? viewModeOf(name, mime) : null
  const [showSource, setShowSource] = useState(false)
  const [copied, setCopied] = useState<CopyState>('idle')
  const imageUrl = useMemo(
    () => attachment.imageUrl ?? (attachment.kind === 'image' && bytes ? bytesToDataUrl(bytes, mime) : null),
    [attachment.imageUrl, attachment.kind, bytes, mime],
  )
  const onCopy = async (copyOf: string) => {
    setCopied((await copyText(copyOf)) ? 'copied' : 'failed')
    setTimeout(() => setCopied('idle'), 1500)
  }

  return createPortal(
    // Still portalled to the body: the composer's chips that open it sit in clipped, scrolled boxes.
    <Dialog className="viewer" label={`Attachment ${name}`} testid="attachment-viewer" onClose={onClose}>
      <div className="viewer-head">
        <div className="viewer-title">
          <span className="viewer-name" data-testid="viewer-name">
            {name}
          </span>
          <span className="muted">
            {mime}
            {attachment.size !== null ? ` · ${formatBytes(attachment.size)}` : ''}
            {attachment.inline ? ' · sent inline as text' : ''}
          </span>
        </div>
        <ViewerActions
          attachment={attachment}
          mode={mode}
          showSource={showSource}
          onToggleSource={() => setShowSource((s) => !s)}
          copied={copied}
          onCopy={onCopy}
          onClose={onClose}
        />
      </div>
      <div className="viewer-body">
        <ViewerBody attachment={attachment} mode={mode} showSource={showSource} imageUrl={imageUrl} />
      </div>
    </Dialog>,
    document.body,
  )
}

function ViewerActions(p: {
  attachment: ShownAttachment
  mode: ViewMode
  showSource: boolean
  onToggleSource(): void
  copied: CopyState
  onCopy(text: string): Promise<void>
  onClose(): void
}) {
  const { name, mime, text, bytes } = p.attachment
  const { mode, showSource, copied } = p
  const renderable = mode === 'markdown' || mode === 'csv'
  return (
    <div className="viewer-actions">
      {renderable && (
        <button type="button" className="button button-secondary small" data-testid="viewer-toggle" aria-pressed={showSource} onClick={p.onToggleSource}>
          {showSource ? (mode === 'csv' ? 'Table' : 'Rendered') : 'Source'}
        </button>
      )}
      {text !== null && (
        <button type="button" className="button button-secondary small" data-testid="viewer-copy" onClick={() => p.onCopy(text)}>
          {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      )}
      {bytes && (
        <button type="button" className="button button-secondary small" data-testid="viewer-save" onClick={() => saveBytes(bytes, name, mime)}>
          Save as…
        </button>
      )}
      <button type="button" className="button button-secondary small" data-testid="viewer-close" aria-label="Close" onClick={p.onClose}>
        ✕
      </button>
    </div>
  )
}

/** The image, the rendered markdown or CSV table (unless the source is asked for), the source, or why there is no preview. */
function ViewerBody({ attachment, mode, showSource, imageUrl }: { attachment: ShownAttachment; mode: ViewMode; showSource: boolean; imageUrl: string | null }) {
  const { name, mime, text, bytes } = attachment
  if (imageUrl) return <img className="viewer-image" src={imageUrl} alt={name} data-testid="viewer-image" />
  if (text === null) {
    return (
      <div className="viewer-empty muted" data-testid="viewer-nopreview">
        {bytes ? 'No preview for this file type. Save it to open it elsewhere.' : 'The server reads this file from disk; its content is not in the message.'}
      </div>
    )
  }
  if (mode === 'markdown' && !showSource)
    return (
      <div className="viewer-markdown" data-testid="viewer-rendered">
        <Markdown text={text.replace(/^\uFEFF/, '')} />
      </div>
    )
  if (mode === 'csv' && !showSource) return <CsvTable text={text} tabs={/tab-separated|\.tsv$/i.test(mime + ' ' + name)} />
  return <Source text={text} language={highlightLanguage(name, mime)} />
}
