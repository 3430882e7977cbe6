/**
 * Links written by a model never act as Retake: relative links and links to Retake's own origin are
 * inert text; external links open only after the user saw the whole URL, and never in the app window.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { classifyLink } from '../../../src/ui/markdown/link-policy'
import { Markdown } from '../../../src/ui/markdown/Markdown'
import { ExternalLinkDialog } from '../../../src/features/chat/ExternalLinkDialog'
import { useLinkPrompt } from '../../../src/ui/markdown/link-prompt-store'

const APP = 'http://127.0.0.1:4173'

describe('classifyLink', () => {
  it('opens only absolute http(s) links to other origins, and mailto', () => {
    expect(classifyLink('https://example.com/a?b=1#c', APP)).toEqual({ kind: 'external', url: 'https://example.com/a?b=1#c' })
    expect(classifyLink('mailto:someone@example.com', APP).kind).toBe('external')
    for (const href of [
      '/opencode/file/content?path=evil.html',
      'evil.html',
      '../evil.html',
      '//127.0.0.1:4173/opencode/x', // protocol-relative to the app itself does not parse without a base
      `${APP}/opencode/file?path=evil.html`,
      'app://retake/opencode/x',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      '',
      null,
    ]) {
      expect(classifyLink(href, APP).kind, String(href)).toBe('inert')
    }
  })
})

describe('links in rendered markdown', () => {
  afterEach(() => {
    useLinkPrompt.setState({ url: null })
    vi.unstubAllGlobals()
  })

  it('a link to Retake’s own origin or a relative path is inert text: no href, a click does nothing', async () => {
    const open = vi.fn()
    vi.stubGlobal('open', open)
    render(<Markdown text={`[report](${window.location.origin}/opencode/file?path=evil.html) and [local](evil.html)`} />)
    for (const name of ['report', 'local']) {
      const a = screen.getByText(name)
      expect(a.getAttribute('href')).toBeNull()
      expect(a.getAttribute('title')).toMatch(/not opened/)
      const click = new MouseEvent('click', { bubbles: true, cancelable: true })
      a.dispatchEvent(click)
      expect(click.defaultPrevented).toBe(true)
    }
    expect(useLinkPrompt.getState().url).toBeNull()
    expect(open).not.toHaveBeenCalled()
  })

  it('an external link asks first, showing the whole URL, and opens a new tab with no opener only on OK', async () => {
    const open = vi.fn()
    vi.stubGlobal('open', open)
    render(
      <>
        <Markdown text="see [the docs](https://example.com/docs?x=1)" />
        <ExternalLinkDialog />
      </>,
    )
    const link = screen.getByText('the docs')
    const click = new MouseEvent('click', { bubbles: true, cancelable: true })
    link.dispatchEvent(click)
    expect(click.defaultPrevented).toBe(true) // the app window never navigates
    expect(await screen.findByTestId('external-link-url')).toHaveTextContent('https://example.com/docs?x=1')
    expect(open).not.toHaveBeenCalled()
    // Focus waits on Cancel, the choice that loses nothing; Esc where focus is closes the dialog.
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus()
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(screen.queryByRole('dialog', { name: 'Open this link?' })).toBeNull()
    expect(open).not.toHaveBeenCalled()

    link.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }))
    await userEvent.click(await screen.findByTestId('external-link-open'))
    expect(open).toHaveBeenCalledWith('https://example.com/docs?x=1', '_blank', 'noopener,noreferrer')
    expect(screen.queryByTestId('external-link')).toBeNull()
  })
})
