/**
 * A session's messages, newest first: opening a session fetches only its last FIRST_PAGE messages
 * (a 1,000-turn session is 2 MB of JSON and a second of transfer and parsing; its last turns are a
 * few kB), and older ones are fetched as the reader scrolls towards them. The cache keeps one
 * contiguous window ending at the newest message, so everything that patches or reads the message
 * list (events, the retake flow) sees the same shape as before, only shorter.
 *
 * opencode's `limit` returns the last N messages; a larger window is fetched again as a whole (no
 * cursor is needed, and the window grows ×4 each time, so the whole session costs at most about
 * 1.3× one full fetch). A refetch (reconnect, after a retake) keeps the window the reader has.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useCallback, useSyncExternalStore } from 'react'
import { clientFor } from './client'
import { queryKeys, type Scope } from './query-keys'
import { useScope } from './scope'
import { unwrap } from './unwrap'
import type { MessageWithParts } from './types'

export const FIRST_PAGE = 40
const GROWTH = 4

interface MessageWindow {
  /** The `limit` last asked for (undefined once the whole session was fetched). */
  limit: number | undefined
  complete: boolean
  loading: boolean
}

const windows = new Map<string, MessageWindow>()
const listeners = new Set<() => void>()
const keyOf = (scope: Scope, sessionID: string) => `${scope.connection}\n${scope.directory}\n${sessionID}`
function changed() {
  for (const l of listeners) l()
}

async function fetchWindow(scope: Scope, sessionID: string, limit: number | undefined): Promise<MessageWithParts[]> {
  const list = unwrap(
    'session.messages',
    await clientFor(scope.directory).session.messages({ sessionID, ...(limit !== undefined ? { limit } : {}) }),
  )
  return list
}

function record(scope: Scope, sessionID: string, limit: number | undefined, got: number): void {
  const complete = limit === undefined || got < limit
  windows.set(keyOf(scope, sessionID), { limit: complete ? undefined : limit, complete, loading: false })
  changed()
}

/** The query function for a session's messages: its current window, or the first page. */
export async function fetchMessages(qc: QueryClient, scope: Scope, sessionID: string): Promise<MessageWithParts[]> {
  const w = windows.get(keyOf(scope, sessionID))
  const cached = qc.getQueryData<MessageWithParts[]>(queryKeys.messages(scope, sessionID))
  // Nothing cached (first open, or the cache was collected since): the first page again.
  const limit = !cached ? FIRST_PAGE : w?.complete ? undefined : Math.max(FIRST_PAGE, w?.limit ?? 0, cached.length)
  const list = await fetchWindow(scope, sessionID, limit)
  record(scope, sessionID, limit, list.length)
  return list
}

/**
 * The fetched window, with what the cache learned meanwhile: a message the event stream patched or
 * added since is taken from the cache (the events are newer than either fetch).
 */
export function mergeWindow(fetched: MessageWithParts[], cached: MessageWithParts[] | undefined): MessageWithParts[] {
  if (!cached?.length) return fetched
  const byId = new Map(cached.map((m) => [m.info.id, m]))
  const out = fetched.map((m) => byId.get(m.info.id) ?? m)
  const seen = new Set(fetched.map((m) => m.info.id))
  for (const m of cached) if (!seen.has(m.info.id)) out.push(m)
  return out
}

/** Whether older messages remain on the server, and a call that fetches the next older stretch. */
export function useOlderMessages(sessionID: string | undefined): { hasOlder: boolean; loadOlder(): void } {
  const scope = useScope()
  const qc = useQueryClient()
  const key = sessionID ? keyOf(scope, sessionID) : ''
  const w = useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => (key ? windows.get(key) : undefined),
  )
  const hasOlder = !!w && !w.complete
  const loadOlder = useCallback(() => {
    const current = windows.get(key)
    if (!sessionID || !current || current.complete || current.loading) return
    windows.set(key, { ...current, loading: true })
    const queryKey = queryKeys.messages(scope, sessionID)
    const limit = Math.max(FIRST_PAGE, current.limit ?? 0, qc.getQueryData<MessageWithParts[]>(queryKey)?.length ?? 0) * GROWTH
    fetchWindow(scope, sessionID, limit).then(
      (list) => {
        qc.setQueryData<MessageWithParts[]>(queryKey, (cached) => mergeWindow(list, cached))
        record(scope, sessionID, limit, list.length)
      },
      // Left as it was: the next scroll towards the top asks again.
      () => {
        windows.set(key, { ...current, loading: false })
        changed()
      },
    )
  }, [key, qc, scope, sessionID])
  return { hasOlder, loadOlder }
}
