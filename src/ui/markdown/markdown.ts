/**
 * Markdown → safe HTML for a model's text. marked renders, sanitize.ts reduces the model's HTML to
 * text structure (the answer is untrusted: it can contain any HTML and links), highlight.js colours
 * code (its grammars load on demand: src/ui/markdown/highlight.ts).
 *
 * Code blocks are Retake's, not the model's: a fence renders first as a placeholder naming it by a
 * random per-render nonce, the HTML is sanitized, and only then is each placeholder replaced by
 * Retake's block (language label, Copy button, highlighted code). The model cannot write the nonce,
 * and nothing it wrote survives sanitizing with a class or a button, so no markup of its own can
 * pose as a code block or its Copy button; Copy (in the Markdown component) copies what a fence
 * rendered. Its click is handled by delegation there, because the strict CSP forbids inline handlers.
 *
 * Images (`![alt](src)`) are never loaded: an image would fetch its address (Retake's own API
 * included) as soon as it is shown. One renders as a link reading "image: alt", under the same link
 * policy as any other link.
 */
import { Marked, Renderer } from 'marked'
import { grammarPending, highlightCode } from './highlight'
import { sanitizeAnswerHtml } from './sanitize'

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** Set while rendering when a code block waited for its grammar (that HTML is not final). */
let waitingForGrammar = false

/** The fences of the render under way: their language and Retake's HTML of their code. */
interface Fence {
  language: string
  body: string
}
let fences: Fence[] = []
let nonce = ''
/** How many links the renderer is inside: an image there is its link's text, not a link of its own. */
let linkDepth = 0

function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }) {
      const language = (lang ?? '').trim().split(/\s+/)[0] ?? ''
      const highlighted = language ? highlightCode(text, language) : null
      // Plain for now: the block is rendered again (not cached) once the grammar has arrived.
      if (highlighted === null && language && grammarPending(language)) waitingForGrammar = true
      const index = fences.push({ language, body: highlighted ?? escapeHtml(text) }) - 1
      return `<pre>${nonce}:${index}</pre>\n`
    },
    link(token) {
      linkDepth++
      try {
        return Renderer.prototype.link.call(this, token)
      } finally {
        linkDepth--
      }
    },
    image({ href, text, tokens }) {
      const alt = tokens ? this.parser.parseInline(tokens, this.parser.textRenderer) : text
      const label = `image: ${escapeHtml(alt || href)}`
      // A linked image (a badge) reads as its link's text; a lone one links to its own address.
      return linkDepth > 0 ? label : `<a href="${escapeHtml(href)}">${label}</a>`
    },
    // A task list's box is text: an <input> is a form control, which answers never get.
    checkbox({ checked }) {
      return checked ? '☑ ' : '☐ '
    },
  },
})

function codeBlockHtml({ language, body }: Fence): string {
  const label = language ? `<span class="code-lang">${escapeHtml(language)}</span>` : ''
  return (
    `<div class="code-block"><div class="code-head">${label}` +
    `<button type="button" class="copy-code" data-testid="copy-code" aria-label="Copy code">Copy</button></div>` +
    `<pre><code class="hljs">${body}</code></pre></div>`
  )
}

export function renderMarkdown(text: string): string {
  fences = []
  nonce = newNonce()
  try {
    const html = sanitizeAnswerHtml(marked.parse(text, { async: false }) as string)
    rendered.count++
    rendered.chars += text.length
    const own = fences
    return html.replace(new RegExp(`<pre>${nonce}:(\\d+)</pre>`, 'g'), (_, i: string) => {
      const fence = own[Number(i)]
      return fence ? codeBlockHtml(fence) : ''
    })
  } finally {
    fences = []
  }
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
