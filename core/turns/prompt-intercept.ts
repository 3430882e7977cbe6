/**
 * Recognizes prompt requests on their way through the proxy, so the main process can record a
 * checkpoint before every turn — whatever sent it (composer, retake, another code path). A prompt
 * without a messageID gets one here: the checkpoint is keyed by session + user message.
 */
import { ascendingId } from '../../shared/ids'

export interface PromptRequestInfo {
  sessionID: string
  directory: string | null
  async: boolean
}

/** A turn starts with a prompt, sync or async, or with one of opencode's commands (its template is the prompt). */
const PROMPT_PATH = /^\/session\/(ses[A-Za-z0-9_]+)\/(message|prompt_async|command)(?:\?|$)/

export function matchPromptRequest(method: string, path: string, headers: Record<string, string | string[] | undefined>): PromptRequestInfo | null {
  if (method.toUpperCase() !== 'POST') return null
  const m = PROMPT_PATH.exec(path)
  if (!m) return null
  return { sessionID: m[1], directory: directoryOf(path, headers), async: m[2] === 'prompt_async' }
}

/** The folder a request is for: opencode's directory header, else its `directory` query. */
export function directoryOf(path: string, headers: Record<string, string | string[] | undefined>): string | null {
  const header = headers['x-opencode-directory']
  if (typeof header === 'string' && header) {
    try {
      return decodeURIComponent(header)
    } catch {
      return header
    }
  }
  return new URLSearchParams(path.split('?')[1] ?? '').get('directory') || null
}

/** Parses the prompt body and makes sure it names its user message; returns the body to forward. */
export function ensureMessageId(body: string): { messageID: string; body: string } | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return null
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null
  const obj = parsed as { messageID?: unknown }
  if (typeof obj.messageID === 'string' && obj.messageID.startsWith('msg')) return { messageID: obj.messageID, body }
  const messageID = ascendingId('msg')
  return { messageID, body: JSON.stringify({ ...obj, messageID }) }
}
