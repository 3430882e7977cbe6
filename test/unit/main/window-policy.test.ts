import { describe, expect, it } from 'vitest'
import { decidePermission, isAllowedNavigation, isSafeExternalUrl, isTrustedSender, secureWebPreferences } from '../../../electron/security/window-policy'

describe('secureWebPreferences', () => {
  it('turns on isolation and the sandbox and turns off every Node entry point', () => {
    const p = secureWebPreferences('/x/preload.cjs')
    expect(p).toMatchObject({
      preload: '/x/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
    })
    expect(p).not.toHaveProperty('enableBlinkFeatures')
  })
})

describe('isAllowedNavigation', () => {
  it.each([
    ['app://retake/index.html', true],
    ['app://retake/', true],
    ['app://evil/index.html', false],
    ['https://retake/', false],
    ['file:///etc/passwd', false],
    ['app://retake.evil.com/', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => expect(isAllowedNavigation(url)).toBe(allowed))
})

describe('isSafeExternalUrl', () => {
  it.each([
    ['https://opencode.ai/docs', true],
    ['http://example.com', true],
    ['mailto:me@example.com', true],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['smb://server/share', false],
    ['app://retake/', false],
    ['vbscript:msgbox', false],
    ['https:', false],
  ])('%s → %s', (url, safe) => expect(isSafeExternalUrl(url)).toBe(safe))
})

describe('decidePermission', () => {
  it('denies by default, also for the app itself', () => {
    for (const p of ['media', 'geolocation', 'openExternal', 'hid', 'serial', 'clipboard-read', 'fullscreen']) {
      expect(decidePermission(p, 'app://retake/index.html')).toBe(false)
    }
  })
  it('grants clipboard writes and notifications only to the app origin', () => {
    for (const p of ['clipboard-sanitized-write', 'notifications']) {
      expect(decidePermission(p, 'app://retake/index.html')).toBe(true)
      expect(decidePermission(p, 'https://evil.example/')).toBe(false)
      expect(decidePermission(p, undefined)).toBe(false)
    }
  })
})

describe('isTrustedSender', () => {
  it('answers only the app’s main frame', () => {
    expect(isTrustedSender({ frameUrl: 'app://retake/index.html', isMainFrame: true })).toBe(true)
    expect(isTrustedSender({ frameUrl: 'app://retake/index.html', isMainFrame: false })).toBe(false)
    expect(isTrustedSender({ frameUrl: 'https://evil.example/', isMainFrame: true })).toBe(false)
    expect(isTrustedSender({ frameUrl: undefined, isMainFrame: true })).toBe(false)
  })
})
