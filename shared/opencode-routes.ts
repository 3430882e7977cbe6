/**
 * The opencode API routes Retake uses, as method + path shapes. The host's proxy forwards these and
 * nothing else (so opencode's own web app, file downloads and any route a page could abuse are not
 * reachable on Retake's origin), and the renderer's client checks its own requests against the same
 * list, so a new call that was not added here fails loudly in tests instead of with a 403 for users.
 * Imported by both sides; imports nothing.
 */

/** One path segment: an id or a name (never empty, never `.` or `..`, never a slash). */
const SEG = '(?!\\.{1,2}(?:/|$))[A-Za-z0-9._~%-]+'

const ROUTES: Record<string, string[]> = {
  GET: [
    '/event',
    '/session',
    '/session/status',
    '/session/:id',
    '/session/:id/message',
    '/session/:id/message/:id',
    '/provider',
    '/provider/auth',
    '/config',
    '/config/providers',
    '/agent',
    // opencode's commands (built-in, the config's, .opencode/command/*.md), listed in the / menu.
    '/command',
    // The project's file names for `@` mentions (opencode's search; .gitignore honoured).
    '/find/file',
    '/question',
    '/permission',
  ],
  POST: [
    '/session',
    '/session/:id/message',
    '/session/:id/prompt_async',
    // A command's turn (its template expanded by opencode): checkpointed like any prompt.
    '/session/:id/command',
    '/session/:id/abort',
    '/session/:id/revert',
    '/session/:id/unrevert',
    '/session/:id/summarize',
    '/session/:id/fork',
    '/session/:id/permissions/:id',
    '/question/:id/reply',
    '/question/:id/reject',
    '/permission/:id/reply',
    // Reloads the project's instance so a saved provider key is used (only when every session is idle).
    '/instance/dispose',
    // Provider sign-in (ProviderSignIn.tsx): the server builds the URL and, for "auto" methods,
    // holds the callback request open until the browser comes back to it.
    '/provider/:id/oauth/authorize',
    '/provider/:id/oauth/callback',
  ],
  PATCH: ['/session/:id', '/config'],
  PUT: ['/auth/:id'],
  DELETE: ['/session/:id', '/session/:id/message/:id/part/:id', '/auth/:id'],
}

const matchers = (routes: Record<string, string[]>): Record<string, RegExp[]> =>
  Object.fromEntries(Object.entries(routes).map(([method, shapes]) => [method, shapes.map((s) => new RegExp(`^${s.replace(/:id/g, SEG)}$`))]))
const MATCHERS = matchers(ROUTES)

/** Is `method path` (path below the proxy mount, query allowed) one of the routes Retake uses? */
export function isAllowedOpencodeRoute(method: string, pathAndQuery: string): boolean {
  const q = pathAndQuery.indexOf('?')
  const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q)
  return (MATCHERS[method.toUpperCase()] ?? []).some((re) => re.test(path))
}
