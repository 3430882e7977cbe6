/**
 * Import of an opencode session export: a new session in the open project whose messages are the
 * export's, replayed through opencode's event log (`/sync/replay`, as "continue from an attempt"
 * does) so the model sees exactly that history on the next prompt.
 *
 * Every id is new (an export of a session this server still has would otherwise rewrite that
 * session's messages): message and part ids are renumbered in the export's order, ascending like
 * opencode's own, and the links between them (a part's message, an answer's question) follow.
 */
import type { OpencodeClient } from '@opencode-ai/sdk/v2/client'
import { ascendingId } from '../../shared/ids'
import type { SessionExport } from '../../shared/ipc-contract'
import { unwrap } from '../../shared/unwrap'
import type { StoredMessage } from './attempt-switch'
import { replayMessages } from './continue-attempt'

export interface ImportDeps {
  client: OpencodeClient
  post(path: string, body: unknown): Promise<{ status: number; json: unknown }>
  now(): number
}

/** The export's messages under `sessionID`, every id new and every link between them kept. */
export function renumbered(data: SessionExport, sessionID: string, now: number): StoredMessage[] {
  const ids = new Map<string, string>()
  for (const m of data.messages) ids.set(m.info.id, ascendingId('msg', now))
  return data.messages.map((m) => {
    const id = ids.get(m.info.id)!
    const parentID = m.info.parentID === undefined ? undefined : (ids.get(m.info.parentID) ?? m.info.parentID)
    return {
      info: { ...m.info, id, sessionID, ...(parentID === undefined ? {} : { parentID }) },
      parts: m.parts.map((p) => ({ ...p, id: ascendingId('prt', now), messageID: id, sessionID })),
    } as unknown as StoredMessage
  })
}

export async function importSession(d: ImportDeps, directory: string, data: SessionExport): Promise<{ sessionID: string; messages: number }> {
  const title = data.info.title?.trim() ? `${data.info.title.trim()} (imported)` : 'Imported session'
  const session = unwrap('session.create', await d.client.session.create({ title })) as { id: string }
  const messages = renumbered(data, session.id, d.now())
  try {
    if (messages.length > 0) await replayMessages(d, directory, session.id, messages)
  } catch (err) {
    // Not half an import: the empty session goes again (its deletion failing changes nothing more).
    await d.client.session.delete({ sessionID: session.id }).catch(() => {})
    throw err
  }
  return { sessionID: session.id, messages: messages.length }
}
