/**
 * What a link in a model's answer (or a rendered attachment) may do. Links are written by a model or
 * an agent, so none of them may navigate Retake's own window or reach its origin: a page there runs
 * with Retake's session. Only absolute http(s) links to another origin, and mailto:, open — outside
 * the app, after the user has seen the full URL. Everything else (relative links, Retake's own
 * origin, app://, javascript:, data:, file:) is inert text.
 */
export type LinkDecision = { kind: 'external'; url: string } | { kind: 'inert'; reason: string }

export function classifyLink(href: string | null | undefined, appOrigin: string): LinkDecision {
  if (!href) return { kind: 'inert', reason: 'no address' }
  let url: URL
  try {
    url = new URL(href) // no base: a relative link does not parse, and stays inert
  } catch {
    return { kind: 'inert', reason: 'a link inside the app' }
  }
  if (url.protocol === 'mailto:') return { kind: 'external', url: url.href }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'inert', reason: `${url.protocol} links are not opened` }
  if (!url.hostname) return { kind: 'inert', reason: 'no host' }
  if (url.origin === appOrigin) return { kind: 'inert', reason: 'a link to Retake itself' }
  return { kind: 'external', url: url.href }
}
