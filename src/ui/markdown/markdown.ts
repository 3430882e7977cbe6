/**
 * Markdown → sanitized HTML for assistant text. marked renders, highlight.js colours code (its
 * grammars load on demand: src/ui/markdown/highlight.ts), DOMPurify removes anything active (the model's
 * output is untrusted: it can contain HTML and links).
 * Code blocks get a copy button; its click is handled by delegation in the Markdown component,
 * because the strict CSP forbids inline handlers anyway.
 */
import { Marked } from 'marked'
import DOMPurify from 'dompurify'
import { classifyLink } from './link-policy'
import { grammarPending, highlightCode } from './highlight'

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Set while rendering when a code block waited for its grammar (that HTML is not final). */
let waitingForGrammar = false

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }) {
      const language = (lang ?? '').trim().split(/\s+/)[0] ?? ''
      const highlighted = language ? highlightCode(text, language) : null
      // Plain for now: the block is rendered again (not cached) once the grammar has arrived.
      if (highlighted === null && language && grammarPending(language)) waitingForGrammar = true
      const body = highlighted ?? escapeHtml(text)
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
  rendered.count++
  rendered.chars += text.length
  return purifier().sanitize(html, { ADD_ATTR: ['target'], FORBID_TAGS: ['style', 'form', 'input'] })
}

/** How much markdown was parsed, highlighted and sanitized (the costly part): calls and characters, for tests. */
export const rendered = { count: 0, chars: 0 }

/**
 * The message split into its top-level blocks (paragraphs, lists, code blocks …), each as its own
 * source text. While an answer streams only its last block grows: the others keep their text and
 * so their rendered HTML (see renderBlock). A message with reference-style link definitions is
 * one block, since a definition anywhere changes links everywhere.
 */
export function splitBlocks(text: string): string[] {
  const tokens = marked.lexer(text)
  if (Object.keys(tokens.links ?? {}).length > 0) return [text]
  const blocks: string[] = []
  let pending = ''
  for (const t of tokens) {
    // Blank space between blocks belongs to the block before it (it renders to nothing).
    if (t.type === 'space') pending += t.raw
    else {
      if (pending && blocks.length) blocks[blocks.length - 1] += pending
      else if (pending) blocks.push(pending)
      pending = ''
      blocks.push(t.raw)
    }
  }
  if (pending) blocks.length ? (blocks[blocks.length - 1] += pending) : blocks.push(pending)
  return blocks
}

const BLOCK_CACHE_SIZE = 4000
const blockCache = new Map<string, string>()

/** A block's sanitized HTML, rendered once per distinct source text (most recently used kept). */
export function renderBlock(raw: string): string {
  const hit = blockCache.get(raw)
  if (hit !== undefined) {
    blockCache.delete(raw)
    blockCache.set(raw, hit)
    return hit
  }
  waitingForGrammar = false
  const html = renderMarkdown(raw)
  if (waitingForGrammar) return html
  blockCache.set(raw, html)
  if (blockCache.size > BLOCK_CACHE_SIZE) blockCache.delete(blockCache.keys().next().value!)
  return html
}
