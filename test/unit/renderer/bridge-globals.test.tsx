/**
 * App globals are read once, when the bridge loads: an element a model names `retakeHost` (DOM
 * clobbering makes it `window.retakeHost` where no real host exists, as in browser mode) does not
 * turn the renderer into the desktop app, so links still open.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isDesktop } from '../../../src/bridge'
import { openExternally } from '../../../src/features/chat/LinkDialog'

afterEach(() => {
  document.getElementById('retakeHost')?.remove()
  Reflect.deleteProperty(window, 'retakeHost')
  vi.unstubAllGlobals()
})

describe('the host transport', () => {
  it('an element named retakeHost in the page changes neither isDesktop nor how a link opens', () => {
    const span = document.createElement('span')
    span.id = 'retakeHost'
    document.body.append(span)
    // What Chromium does for a named element when the window has no such property (jsdom does not).
    Object.defineProperty(window, 'retakeHost', { value: span, configurable: true })
    expect(isDesktop()).toBe(false)
    const open = vi.fn()
    vi.stubGlobal('open', open)
    openExternally('https://example.com/a')
    expect(open).toHaveBeenCalledWith('https://example.com/a', '_blank', 'noopener,noreferrer')
  })
})
