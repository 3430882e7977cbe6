/**
 * Which folders the window may have opencode work in. opencode opens whatever folder a request
 * names (its `directory` query parameter or `x-opencode-directory` header) and loads that folder's
 * own config and plugins (`.opencode/plugin/*.js`): naming a folder is running its code. So a
 * request the window sends (browser mode's host and the desktop `app://` handler alike) must name
 * a folder the user opened this run — the start-up project, one opened from the picker, a fork's
 * own folder Retake made — compared by real path; anything else is refused with 403 before it
 * reaches the checkpoints or opencode. The host's own calls (retake, fork) are not checked here:
 * their folders come from the window's validated calls.
 */
import { realpathSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import type { ProxyRequest } from '../server/opencode-proxy'

export type FolderDecision = { ok: true; req: ProxyRequest } | { ok: false; status: 403; message: string }

const refuse = (message: string): FolderDecision => ({ ok: false, status: 403, message })

/** The real path of a folder, or null when it does not exist (or cannot be read). */
function realOrNull(path: string, realpath: (p: string) => string): string | null {
  try {
    return realpath(path)
  } catch {
    return null
  }
}

/**
 * Checks every folder a window's request names against the opened ones. What is forwarded names
 * exactly what was checked: one `directory` in the query (re-encoded) and the header re-encoded as
 * the SDK sends it, so opencode cannot read a different folder out of the same request.
 */
export function checkWindowFolders(req: ProxyRequest, opened: Iterable<string>, realpath: (p: string) => string = realpathSync.native): FolderDecision {
  const at = req.path.indexOf('?')
  const pathname = at === -1 ? req.path : req.path.slice(0, at)
  const params = new URLSearchParams(at === -1 ? '' : req.path.slice(at + 1))
  const header = req.headers['x-opencode-directory']
  if (params.has('workspace') || req.headers['x-opencode-workspace'] !== undefined) return refuse('Retake does not forward opencode workspaces from the window')
  if (Array.isArray(header)) return refuse('A request may name one folder only')
  const fromQuery = params.getAll('directory')
  if (fromQuery.length > 1) return refuse('A request may name one folder only')
  let fromHeader: string | undefined
  if (typeof header === 'string') {
    try {
      fromHeader = decodeURIComponent(header)
    } catch {
      return refuse('The x-opencode-directory header is not a valid encoded path')
    }
  }
  const named = [...fromQuery, ...(fromHeader === undefined ? [] : [fromHeader])]
  if (named.length === 0) return refuse('A request from the window must name its project folder')
  const allowed = new Set<string>()
  for (const p of opened) {
    const real = realOrNull(p, realpath)
    if (real) allowed.add(real)
  }
  for (const dir of named) {
    const real = isAbsolute(dir) ? realOrNull(dir, realpath) : null
    if (!real || !allowed.has(real)) {
      return refuse(`Retake only works in folders opened as a project: ${JSON.stringify(dir)} is not one (open it from the project picker first)`)
    }
  }
  const headers = { ...req.headers }
  if (fromHeader !== undefined) headers['x-opencode-directory'] = encodeURIComponent(fromHeader)
  if (fromQuery.length === 0) return { ok: true, req: { ...req, headers } }
  params.delete('directory')
  params.set('directory', fromQuery[0]!)
  return { ok: true, req: { ...req, headers, path: `${pathname}?${params.toString()}` } }
}
