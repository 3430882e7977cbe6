/** Pure decisions of the server manager, kept apart so they are tested without a process. */

/** The URL from opencode's `opencode server listening on http://…` stdout line, once it appears. */
export function parseListeningLine(stdout: string): string | null {
  const m = /opencode server listening on (https?:\/\/[^\s]+)/.exec(stdout)
  return m ? m[1].replace(/\/$/, '') : null
}

/** Exponential backoff for restart attempt n (1-based), capped. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1))
}
