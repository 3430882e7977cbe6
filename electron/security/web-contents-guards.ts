/**
 * The guards every webContents gets when it is created (main.ts, `web-contents-created`), written
 * against the few methods they use so they are tested without Electron: no navigation away from the
 * app, no redirect away from it, no <webview>, and no new window — a `window.open` or target=_blank
 * link is denied, and only a safe http(s)/mailto URL goes to the system browser instead.
 */
import { isAllowedNavigation, isSafeExternalUrl } from './window-policy'

interface PreventableEvent {
  preventDefault(): void
}

/** The slice of Electron's WebContents the guards need. */
export interface GuardableContents {
  on(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', listener: (event: PreventableEvent, url: string) => void): unknown
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void
}

export function guardWebContents(contents: GuardableContents, openExternal: (url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) openExternal(url)
    return { action: 'deny' }
  })
}
