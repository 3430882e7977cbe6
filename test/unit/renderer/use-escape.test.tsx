import { createRoot } from 'react-dom/client'
import { describe, expect, it, vi } from 'vitest'
import { fireEvent, render } from '@testing-library/react'
import { useEscape } from '../../../src/ui/use-escape'
import { useEscapeStops } from '../../../src/features/chat/use-escape-stops'
import { Markdown } from '../../../src/ui/markdown/Markdown'

function Dialog({ onClose }: { onClose(): void }) {
  useEscape(onClose)
  return <div role="dialog">sheet</div>
}

describe('useEscape', () => {
  // A dialog that shows up (a lazy chunk arriving, a render outside a click) is painted before
  // React runs its passive effects. An Esc pressed in that gap used to be lost: the sheet stayed
  // open (CI caught it once in the shortcuts sheet test).
  it('Esc closes a dialog the moment it is in the page, before React runs its passive effects', async () => {
    const g = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
    const before = g.IS_REACT_ACT_ENVIRONMENT
    g.IS_REACT_ACT_ENVIRONMENT = false // a real render, scheduled as in the app, not flushed by act
    const host = document.createElement('div')
    document.body.append(host)
    const root = createRoot(host)
    const onClose = vi.fn()
    try {
      const closedWhenShown = new Promise<boolean>((resolve) => {
        // Runs in the microtask right after the commit put the dialog in the page.
        const seen = new MutationObserver(() => {
          if (!host.querySelector('[role="dialog"]')) return
          seen.disconnect()
          window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
          resolve(onClose.mock.calls.length > 0)
        })
        seen.observe(host, { childList: true, subtree: true })
      })
      root.render(<Dialog onClose={onClose} />)
      expect(await closedWhenShown).toBe(true)
    } finally {
      root.unmount()
      host.remove()
      g.IS_REACT_ACT_ENVIRONMENT = before
    }
  })
})

describe('Esc stops a running turn', () => {
  function Running({ stop }: { stop(): void }) {
    useEscapeStops(true, stop)
    return null
  }

  it('unless one of Retake’s dialogs is open; an answer that claims to be a dialog changes nothing', () => {
    const stop = vi.fn()
    const shown = render(
      <>
        <Running stop={stop} />
        <Dialog onClose={() => {}} />
      </>,
    )
    fireEvent.keyDown(window, { key: 'Escape' })
    expect(stop).not.toHaveBeenCalled()
    shown.rerender(
      <>
        <Running stop={stop} />
        <Markdown text={'<span aria-modal="true" role="dialog">not a dialog</span>'} />
      </>,
    )
    // Even an element that gets past the sanitizer with the attribute is not one of Retake's dialogs.
    const planted = document.createElement('div')
    planted.setAttribute('aria-modal', 'true')
    document.body.append(planted)
    fireEvent.keyDown(window, { key: 'Escape' })
    planted.remove()
    expect(stop).toHaveBeenCalledOnce()
  })
})
