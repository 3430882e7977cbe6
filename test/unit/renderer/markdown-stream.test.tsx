// Streaming costs per delta, not per message. While an answer grows only its last block
// is parsed, highlighted and sanitized again; finished blocks keep their HTML.
import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Markdown } from '../../../src/ui/markdown/Markdown'
import { rendered, splitBlocks } from '../../../src/ui/markdown/markdown'

const head = '# Plan\n\nFirst we read the file.\n\n```ts\nconst x: number = 1\n```\n\n- one\n- two\n\n'

describe('streamed markdown', () => {
  it('a delta re-renders only the block that grows', () => {
    const { container, rerender } = render(<Markdown text={head + 'The answer is'} />)
    expect(container.querySelectorAll('.markdown-block')).toHaveLength(5)
    const before = { ...rendered }
    const deltas = [' forty', ' forty-two', ' forty-two.']
    for (const more of deltas) rerender(<Markdown text={head + 'The answer is' + more} />)
    // One render per delta, of the last block's text only — not of the whole message again.
    expect(rendered.count - before.count).toBe(3)
    expect(rendered.chars - before.chars).toBe(deltas.reduce((n, d) => n + ('The answer is' + d).length, 0))
    expect(container.querySelector('pre code')?.textContent).toBe('const x: number = 1')
    expect(container.textContent).toContain('The answer is forty-two.')
  })

  it('keeps the structure of the whole (heading, list, code), and a half-open fence mid-stream reads sensibly', () => {
    const whole = document.createElement('div')
    const { container } = render(<Markdown text={head + 'Done.'} />)
    whole.innerHTML = [...container.querySelectorAll('.markdown-block')].map((b) => b.innerHTML).join('')
    expect(whole.querySelector('h1')?.textContent).toBe('Plan')
    expect(whole.querySelectorAll('li')).toHaveLength(2)
    const open = render(<Markdown text={'Here:\n\n```py\nprint("hi")'} />)
    expect(open.container.querySelector('pre code')?.textContent).toContain('print("hi")')
  })

  it('keeps reference-style links working (such a message is one block)', () => {
    expect(splitBlocks('See [docs][d].\n\nMore.\n\n[d]: https://example.com\n')).toHaveLength(1)
    const { container } = render(<Markdown text={'See [docs][d].\n\n[d]: https://example.com\n'} />)
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://example.com/')
  })
})
