/**
 * The Electron security checklist items that are wired in main.ts and the preload, tested without
 * Electron through the pure pieces main.ts hands Electron's objects to: the guards on every
 * webContents (window.open denied, navigation/redirect/webview refused), the preload's facade (no raw
 * Electron API), the session's permission handlers and the app:// scheme's privileges, and the CSP
 * (an injected inline script cannot run). window-policy.test.ts covers the decisions themselves.
 */
import { describe, expect, it, vi } from 'vitest'
import { guardWebContents, type GuardableContents } from '../../../electron/security/web-contents-guards'
import { EVENT_CHANNEL, INVOKE_CHANNEL, exposeHost, type IpcRendererLike } from '../../../electron/security/preload-transport'
import { APP_SCHEME_PRIVILEGES, securePermissions, type PermissionSession } from '../../../electron/security/session-policy'
import { RENDERER_CSP } from '../../../core/security/csp'

/** A webContents stand-in that records what the guards installed, and fires events like Chromium. */
function fakeContents() {
  const listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>()
  let openHandler: ((d: { url: string }) => { action: 'deny' }) | null = null
  const contents: GuardableContents = {
    on: (name, l) => listeners.set(name, l),
    setWindowOpenHandler: (h) => (openHandler = h),
  }
  const fire = (name: string, url = '') => {
    const event = { preventDefault: vi.fn() }
    listeners.get(name)!(event, url)
    return event.preventDefault.mock.calls.length > 0 ? 'prevented' : 'allowed'
  }
  return { contents, fire, open: (url: string) => openHandler!({ url }) }
}

describe('every webContents is guarded', () => {
  it('window.open and target=_blank never make a window; only safe links go to the system browser', () => {
    const { contents, open } = fakeContents()
    const external = vi.fn()
    guardWebContents(contents, external)
    for (const url of ['https://example.com/page', 'mailto:me@example.com', 'app://retake/index.html', 'file:///etc/passwd', 'javascript:alert(1)', 'about:blank', '']) {
      expect(open(url)).toEqual({ action: 'deny' })
    }
    expect(external.mock.calls).toEqual([['https://example.com/page'], ['mailto:me@example.com']])
  })

  it('navigation and redirects away from the app are stopped, a <webview> never attaches', () => {
    const { contents, fire } = fakeContents()
    guardWebContents(contents, () => {})
    expect(fire('will-navigate', 'app://retake/index.html')).toBe('allowed')
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://retake.evil.com/', 'javascript:alert(1)']) {
      expect(fire('will-navigate', url)).toBe('prevented')
      expect(fire('will-redirect', url)).toBe('prevented')
    }
    expect(fire('will-attach-webview')).toBe('prevented')
  })
})

describe('the preload exposes no raw Electron API', () => {
  function fakeIpc() {
    const handlers = new Set<(event: unknown, ...args: unknown[]) => void>()
    const ipc: IpcRendererLike & { secret: string } = {
      secret: 'ipcRenderer itself',
      invoke: vi.fn(async () => ({ ok: true, data: 1 })),
      on: (channel, l) => (expect(channel).toBe(EVENT_CHANNEL), handlers.add(l)),
      removeListener: (_c, l) => handlers.delete(l),
    }
    const emit = (name: string, payload: unknown) => handlers.forEach((h) => h({ sender: ipc }, name, payload))
    return { ipc, handlers, emit }
  }

  it('puts exactly one frozen object with two functions on the page, holding nothing of ipcRenderer', () => {
    const { ipc } = fakeIpc()
    const exposed: [string, unknown][] = []
    exposeHost({ exposeInMainWorld: (name, api) => exposed.push([name, api]) }, ipc)
    expect(exposed.map(([name]) => name)).toEqual(['retakeHost'])
    const api = exposed[0]![1] as Record<string, unknown>
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on'])
    expect(Object.values(api).every((v) => typeof v === 'function')).toBe(true)
    expect(Object.isFrozen(api)).toBe(true)
    expect(Object.values(api)).not.toContain(ipc)
  })

  it('invoke always goes to the router channel; listeners get the payload, never the event', async () => {
    const { ipc, handlers, emit } = fakeIpc()
    let api: { invoke(c: string, i: unknown): Promise<unknown>; on(e: string, l: (p: unknown) => void): () => void } | undefined
    exposeHost({ exposeInMainWorld: (_n, a) => (api = a as typeof api) }, ipc)
    await api!.invoke('electron:anything', { x: 1 })
    expect(ipc.invoke).toHaveBeenCalledWith(INVOKE_CHANNEL, 'electron:anything', { x: 1 })

    const seen: unknown[][] = []
    const off = api!.on('server.status', (...args) => seen.push(args))
    emit('server.status', { state: 'ready' })
    emit('checkpoint.progress', { other: true })
    expect(seen).toEqual([[{ state: 'ready' }]])
    off()
    expect(handlers.size).toBe(0)
  })
})

describe('the session and the app:// scheme', () => {
  function fakeSession() {
    const s: { request?: Parameters<PermissionSession['setPermissionRequestHandler']>[0]; check?: Parameters<PermissionSession['setPermissionCheckHandler']>[0] } = {}
    const session: PermissionSession = {
      setPermissionRequestHandler: (h) => (s.request = h),
      setPermissionCheckHandler: (h) => (s.check = h),
    }
    return { session, s }
  }
  const page = (url: string) => ({ getURL: () => url })

  it('both permission handlers are set and deny by default; the two granted ones only for the app', () => {
    const { session, s } = fakeSession()
    securePermissions(session)
    const request = (url: string, permission: string) => {
      let granted: boolean | undefined
      s.request!(page(url), permission, (g) => (granted = g))
      return granted
    }
    for (const p of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'hid', 'fullscreen']) {
      expect(request('app://retake/index.html', p)).toBe(false)
      expect(s.check!(page('app://retake/index.html'), p)).toBe(false)
    }
    expect(request('app://retake/index.html', 'notifications')).toBe(true)
    expect(request('https://evil.example/', 'notifications')).toBe(false)
    expect(s.check!(page('app://retake/index.html'), 'clipboard-sanitized-write')).toBe(true)
    expect(s.check!(null, 'notifications')).toBe(false)
  })

  it('app:// is a secure standard scheme that bypasses neither CSP nor CORS', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ standard: true, secure: true, supportFetchAPI: true, stream: true })
  })
})

describe('the CSP: an injected inline script cannot run', () => {
  const directives = new Map(
    RENDERER_CSP.split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  )

  it('scripts come only from the app’s own files: no inline, eval, data:, blob: or wildcard source', () => {
    const scripts = directives.get('script-src') ?? directives.get('default-src')!
    expect(scripts).toEqual(["'self'"])
    // Attribute handlers (onerror=…) and javascript: URLs are inline script too; nothing re-allows them.
    expect(directives.has('script-src-attr')).toBe(false)
    expect(directives.has('script-src-elem')).toBe(false)
    expect(RENDERER_CSP).not.toMatch(/unsafe-eval|unsafe-hashes|strict-dynamic|'nonce-|'sha(256|384|512)-/)
  })

  it('no plugin objects, no <base> rewriting, no framing, and fetches only to the app’s origin', () => {
    expect(directives.get('object-src')).toEqual(["'none'"])
    expect(directives.get('base-uri')).toEqual(["'none'"])
    expect(directives.get('frame-ancestors')).toEqual(["'none'"])
    expect(directives.get('connect-src')).toEqual(["'self'"])
  })
})
