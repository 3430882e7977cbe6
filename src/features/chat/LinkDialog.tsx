/**
 * The dialog of ExternalLinkDialog.tsx: the whole URL, Cancel and Open link. Its own chunk: a link
 * is followed long after the window opened, so its code is not part of the first load.
 */
import { useCallback } from 'react'
import { getBridge, isDesktop } from '../../bridge'
import { useEscape } from '../../ui/use-escape'

export function openExternally(url: string): void {
  if (isDesktop()) void getBridge().invoke('shell.openExternal', { url })
  else window.open(url, '_blank', 'noopener,noreferrer')
}

export function LinkDialog({ url, onClose }: { url: string; onClose(): void }) {
  useEscape(useCallback(() => onClose(), [onClose]))
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="link-title" data-testid="external-link">
        <div className="dialog-head">
          <h2 id="link-title">Open this link?</h2>
        </div>
        <p className="muted">It leaves Retake and opens in your browser:</p>
        <p className="link-url" data-testid="external-link-url">
          {url}
        </p>
        <div className="dialog-buttons">
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button"
            data-testid="external-link-open"
            autoFocus
            onClick={() => {
              openExternally(url)
              onClose()
            }}
          >
            Open link
          </button>
        </div>
      </div>
    </div>
  )
}
