/**
 * What the host answers a browser it will not serve the app to (a tab of an ended run reloading, an
 * address without the token, a stale link): a small page that says in a sentence what happened and
 * what to do. It is self-contained and runs nothing: its only style is allowed by hash, the
 * document is sandboxed, and it loads nothing from the host (which would be refused as well).
 */
import { createHash } from 'node:crypto'

/** The sentences, one per refusal a person can meet. */
export const REFUSAL_TEXT = {
  /** A Host this run does not answer to: typically a tab of an earlier run, after a restart. */
  otherRun: 'This address belongs to a Retake run that has stopped. Start Retake again, then open the address it prints.',
  /** 127.0.0.1 / localhost without the token. */
  alias: 'This Retake run answers only at the address it printed when it started: open that address. If Retake stopped running, start it again, then open the address it prints.',
  /** No session cookie: the printed address (with its token) was not opened in this browser. */
  noSession:
    'This page opens from the address Retake printed, which carries its access token: open that address. If Retake stopped running, start it again, then open the address it prints.',
  badToken: 'This link’s access token is not for the Retake that runs now (each run prints a new address): open the address it printed.',
} as const

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: light-dark(#f6f7f9, #16181d); color: light-dark(#1f2328, #e6e8eb); }
main { max-width: 34rem; margin: 1.5rem; padding: 1.75rem 2rem; border-radius: 0.75rem; background: light-dark(#ffffff, #1e2128); box-shadow: 0 8px 30px light-dark(rgba(16, 24, 40, 0.12), rgba(0, 0, 0, 0.5)); }
h1 { margin: 0 0 0.75rem; font-size: 1.25rem; }
p { margin: 0; line-height: 1.5; }
p.muted { margin-top: 1rem; font-size: 0.875rem; color: light-dark(#5d6679, #98a2b3); }
`
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64')

/** The page's own policy: no script at all (sandboxed), its one style by hash, nothing fetched. */
export const REFUSAL_CSP = ['sandbox', "default-src 'none'", `style-src 'sha256-${STYLE_HASH}'`, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; ')

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function refusalPage(text: string, status: number): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Retake</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Retake</h1>
<p role="alert">${escape(text)}</p>
<p class="muted">Retake prints its address in the terminal where it was started (HTTP ${status}).</p>
</main>
</body>
</html>
`
}
