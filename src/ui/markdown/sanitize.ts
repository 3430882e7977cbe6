/**
 * What survives of a model's HTML. Everything in an answer is written by a model, so its markup may
 * only be text structure: the elements markdown itself produces (and a few inline ones of the same
 * kind) with no attribute that styles, names or labels anything. No `style`, `class`, `id`,
 * `aria-*`, `data-*`: with them a model could cover earlier turns, fake Retake's notices or its
 * Copy button, clobber `window.*` globals or pose as one of Retake's dialogs. No images, media,
 * forms, buttons, image maps, svg, math or frames: each of them fetches, navigates or acts. An
 * element that is not allowed is dropped and its text kept (script, style and the like lose their
 * text too).
 *
 * Links keep an `href` only when link-policy.ts calls them external; the Markdown component opens
 * those after a confirmation. Retake's own code-block chrome is added after this step
 * (markdown.ts), so nothing that passed through here can look like it.
 */
import createDOMPurify from 'dompurify'
import { classifyLink } from './link-policy'

export const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  'b',
  'i',
  'del',
  's',
  'kbd',
  'sub',
  'sup',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]

/** `start` numbers an ordered list, `align` a table column (both from markdown), `title` a tooltip. */
export const ALLOWED_ATTR = ['href', 'title', 'start', 'align']

let purifier: ReturnType<typeof createDOMPurify> | null = null

/** A private DOMPurify instance: its hook and rules are not shared with any other caller. */
function answerPurifier() {
  if (purifier) return purifier
  const p = createDOMPurify(window)
  // A link never navigates the app window: external ones are opened by the Markdown component
  // after a confirmation; the rest (relative, Retake's own origin, other schemes) lose their href.
  p.addHook('afterSanitizeAttributes', (node) => {
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
      node.setAttribute('class', 'link-inert')
      node.setAttribute('title', `${href ?? ''} (not opened: ${decision.reason})`)
    }
  })
  // Set once on this instance (rather than passed to each call, which parses it again every time).
  p.setConfig({
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    // DOMPurify lets these through beside ALLOWED_ATTR unless told not to.
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    KEEP_CONTENT: true,
  })
  purifier = p
  return p
}

/** The model's HTML reduced to the allow-list above. */
export function sanitizeAnswerHtml(html: string): string {
  return answerPurifier().sanitize(html)
}
