/**
 * Every security decision of the desktop window as a pure function, so each has a unit test:
 * the webPreferences, which navigations and external links are allowed, which permission requests
 * are granted (none by default) and which IPC senders are trusted.
 */

export const APP_SCHEME = 'app'
export const APP_HOST = 'retake'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
export const APP_ENTRY = `${APP_ORIGIN}/index.html`

export interface SecureWebPreferences {
  preload: string
  contextIsolation: true
  sandbox: true
  nodeIntegration: false
  nodeIntegrationInWorker: false
  nodeIntegrationInSubFrames: false
  webSecurity: true
  allowRunningInsecureContent: false
  experimentalFeatures: false
  webviewTag: false
  navigateOnDragDrop: false
  spellcheck: boolean
}

/** The only webPreferences any Retake window is created with. */
export function secureWebPreferences(preload: string): SecureWebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    // A file dropped on the window must reach the composer, never replace the app.
    navigateOnDragDrop: false,
    spellcheck: true,
  }
}

function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** The window may only ever show the app itself (a reload); every other navigation is refused. */
export function isAllowedNavigation(url: string): boolean {
  const u = parse(url)
  return u !== null && u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST
}

/** Links the user clicks open in the OS browser only for these schemes (never file:, javascript:, custom). */
export function isSafeExternalUrl(url: string): boolean {
  const u = parse(url)
  if (!u) return false
  if (u.protocol === 'mailto:') return true
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0
}

/**
 * Permissions are denied unless listed: writing to the clipboard (copy buttons) and notifications
 * (opt-in in Settings: a turn that ends while the window is in the background).
 */
const GRANTED_PERMISSIONS = new Set(['clipboard-sanitized-write', 'notifications'])

export function decidePermission(permission: string, requestingUrl: string | undefined): boolean {
  if (!GRANTED_PERMISSIONS.has(permission)) return false
  return requestingUrl !== undefined && isAllowedNavigation(requestingUrl)
}

/** IPC is answered only for the app's own top frame (not a subframe, not another origin). */
export function isTrustedSender(sender: { frameUrl: string | undefined; isMainFrame: boolean }): boolean {
  if (!sender.isMainFrame || !sender.frameUrl) return false
  return isAllowedNavigation(sender.frameUrl)
}
