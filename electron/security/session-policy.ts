/**
 * How the desktop app sets up its protocol and session, as data and small functions tested
 * without Electron: the `app://` scheme's privileges, and the two permission handlers (both must be
 * set: without a check handler Chromium answers permission checks with its own defaults).
 */
import { decidePermission } from './window-policy'

/**
 * `app://` is a standard, secure scheme (a real origin; secure context, so no mixed content) that
 * may stream and be fetched. Nothing that would weaken it: no CSP bypass, no CORS exemption, no
 * service workers.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, stream: true } as const

interface PageLike {
  getURL(): string
}

/** The slice of Electron's Session the permission setup needs. */
export interface PermissionSession {
  setPermissionRequestHandler(handler: (contents: PageLike, permission: string, callback: (granted: boolean) => void) => void): void
  setPermissionCheckHandler(handler: (contents: PageLike | null, permission: string) => boolean): void
}

/** Every permission request and check is decided by decidePermission: denied unless listed, and only for the app. */
export function securePermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((contents, permission, callback) => callback(decidePermission(permission, contents.getURL())))
  session.setPermissionCheckHandler((contents, permission) => decidePermission(permission, contents?.getURL()))
}
