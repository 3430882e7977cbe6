/**
 * Markdown → sanitized HTML for assistant text. marked renders, highlight.js colours code, DOMPurify
 * removes anything active (the model's output is untrusted: it can contain HTML and links).
 * Code blocks get a copy button; its click is handled by delegation in the Markdown component,
 * because the strict CSP forbids inline handlers anyway.
 */
import { Marked } from 'marked'
import hljs from 'highlight.js/lib/common'
import DOMPurify from 'dompurify'
import { classifyLink } from './link-policy'

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }) {
      const language = (lang ?? '').trim().split(/\s+/)[0] ?? ''
      let body: string
      try {
        body =
          language && hljs.getLanguage(language)
            ? hljs.highlight(text, { language, ignoreIllegals: true }).value
            : escapeHtml(text)
      } catch {
        body = escapeHtml(text)
      }
      const label = language ? `<span class="code-lang">${escapeHtml(language)}</span>` : ''
      return (
        `<div class="code-block"><div class="code-head">${label}` +
        `<button type="button" class="copy-code" data-testid="copy-code" aria-label="Copy code">Copy</button></div>` +
        `<pre><code class="hljs">${body}</code></pre></div>`
      )
    },
  },
})

let hooked = false
function purifier() {
  if (!hooked) {
    // A link never navigates the app window: external ones are opened by the Markdown component
    // after a confirmation; the rest (relative, Retake's own origin, other schemes) lose their href.
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName !== 'A') return
      const href = node.getAttribute('href')
      const decision = classifyLink(href, window.location.origin)
      if (decision.kind === 'external') {
        node.setAttribute('href', decision.url)
        node.setAttribute('target', '_blank')
        node.setAttribute('rel', 'noopener noreferrer')
        node.setAttribute('data-external', '')
      } else {
        node.removeAttribute('href')
        node.removeAttribute('target')
        node.setAttribute('class', 'link-inert')
        node.setAttribute('title', `${href ?? ''} (not opened: ${decision.reason})`)
      }
    })
    hooked = true
  }
  return DOMPurify
}

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false }) as string
  return purifier().sanitize(html, { ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'form', 'input'] })
}
