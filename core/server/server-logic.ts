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

/**
 * The environment the opencode server starts with, less Retake's own variables: the agent's tools
 * inherit the server's environment (an `env` in a shell tool shows it), so the browser-mode token,
 * a remote server's password and any other RETAKE_* setting must not be there.
 */
export function agentSafeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(env)) if (!/^RETAKE_/i.test(k)) out[k] = v
  return out
}
