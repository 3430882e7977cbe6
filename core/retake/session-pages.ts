/**
 * A session's newest messages, page by page back in time (opencode's `limit` and its opaque
 * `X-Next-Cursor`), until the page holding a given message and the user turn it belongs to: a
 * retake of one of the last turns of a long session does not read the session whole.
 */
import type { OpencodeClient } from '@opencode-ai/sdk/v2/client'
import { unwrap } from '../../shared/unwrap'

interface Stored {
  info: { id: string; role: string; parentID?: string }
}

export async function messagesBackTo(c: OpencodeClient, sessionID: string, id: string, pageSize = 64, firstPage = Math.min(pageSize, 16)): Promise<Stored[]> {
  let list: Stored[] = []
  let before: string | undefined
  for (;;) {
    // The last turns (what ↺ is mostly pressed on) are in a small first page: tool outputs make
    // messages large, and this read is on the way to the prompt. Further back, larger pages.
    const r = await c.session.messages({ sessionID, limit: before ? pageSize : firstPage, ...(before ? { before } : {}) })
    const page = unwrap('session.messages', r) as unknown as Stored[]
    list = [...page, ...list]
    const at = list.findIndex((m) => m.info.id === id)
    const parent = at >= 0 ? list[at]!.info.parentID : undefined
    const found = at >= 0 && (list[at]!.info.role === 'user' || !parent || list.some((m) => m.info.id === parent))
    const next = r.response?.headers.get('x-next-cursor')
    if (found || !next) return list
    before = next
  }
}
