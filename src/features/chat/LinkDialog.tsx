/**
 * The dialog of ExternalLinkDialog.tsx: the whole URL, Cancel and Open link. Its own chunk: a link
 * is followed long after the window opened, so its code is not part of the first load.
 */
import { useRef } from 'react'
import { getBridge, isDesktop } from '../../bridge'
import { Dialog } from '../../ui/Dialog'

export function openExternally(url: string): void {
  if (isDesktop()) void getBridge().invoke('shell.openExternal', { url })
  else window.open(url, '_blank', 'noopener,noreferrer')
}

export function LinkDialog({ url, onClose }: { url: string; onClose(): void }) {
  // Cancel first: an Enter meant for the chat must not send the user to a page they did not check.
  const cancel = useRef<HTMLButtonElement>(null)
  return (
    <Dialog className="dialog" labelledBy="link-title" testid="external-link" onClose={onClose} initialFocus={cancel}>
      <div className="dialog-head">
        <h2 id="link-title">Open this link?</h2>
      </div>
      <p className="muted">It leaves Retake and opens in your browser:</p>
      <p className="link-url" data-testid="external-link-url">
        {url}
      </p>
      <div className="dialog-buttons">
        <button ref={cancel} type="button" className="button button-secondary" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button"
          data-testid="external-link-open"
          onClick={() => {
            openExternally(url)
            onClose()
          }}
        >
          Open link
        </button>
      </div>
    </Dialog>
  )
}
