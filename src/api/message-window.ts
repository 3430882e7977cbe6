/**
 * A session's messages, newest first: opening a session fetches only its last FIRST_PAGE messages
 * (a 1,000-turn session is 2 MB of JSON and a second of transfer and parsing; its last turns are a
 * few kB), and older ones are fetched as the reader scrolls towards them. The cache keeps one
 * contiguous window ending at the newest message, so everything that patches or reads the message
 * list (events, the retake flow) sees the same shape as before, only shorter.
 *
 * Older messages come a page of OLDER_PAGE at a time, by opencode's cursor (`before`, from the
 * `X-Next-Cursor` of the previous answer), and are put in front of the window: each page is a few
 * hundred kB to parse and merge, never the whole session at once (refetching a window four times
 * larger, as this did before, ended in one 2 MB answer parsed and merged in a single long task).
 * A refetch (reconnect, after a retake) fetches the window the reader has, as a whole.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useCallback, useSyncExternalStore } from 'react'
import { clientFor } from './client'
import { queryKeys, type Scope } from './query-keys'
import { useScope } from './scope'
import { unwrap } from '../../shared/unwrap'
import type { MessageWithParts } from './types'

export const FIRST_PAGE = 40
export const OLDER_PAGE = 200

interface MessageWindow {
  /** How many messages the window holds (undefined once it holds the whole session). */
  limit: number | undefined
  /** opencode's cursor for the page before the window (null: ask by `limit` once more to get one). */
  cursor: string | null
  complete: boolean
  loading: boolean
}

const windows = new Map<string, MessageWindow>()
const listeners = new Set<() => void>()
const keyOf = (scope: Scope, sessionID: string) => `${scope.connection}\n${scope.directory}\n${sessionID}`
function changed() {
  for (const l of listeners) l()
}

async function fetchPage(scope: Scope, sessionID: string, query: { limit?: number; before?: string }): Promise<{ list: MessageWithParts[]; cursor: string | null }> {
  const r = await clientFor(scope.directory).session.messages({ sessionID, ...query })
  return { list: unwrap('session.messages', r), cursor: r.response?.headers.get('x-next-cursor') ?? null }
}

function record(scope: Scope, sessionID: string, w: Omit<MessageWindow, 'loading'>): void {
  windows.set(keyOf(scope, sessionID), { ...w, loading: false })
  changed()
}

/** The query function for a session's messages: its current window, or the first page. */
export async function fetchMessages(qc: QueryClient, scope: Scope, sessionID: string): Promise<MessageWithParts[]> {
  const w = windows.get(keyOf(scope, sessionID))
  const cached = qc.getQueryData<MessageWithParts[]>(queryKeys.messages(scope, sessionID))
  // Nothing cached (first open, or the cache was collected since): the first page again.
  const limit = !cached ? FIRST_PAGE : w?.complete ? undefined : Math.max(FIRST_PAGE, w?.limit ?? 0, cached.length)
  const { list, cursor } = await fetchPage(scope, sessionID, limit !== undefined ? { limit } : {})
  const complete = limit === undefined || list.length < limit
  record(scope, sessionID, { limit: complete ? undefined : limit, cursor: complete ? null : cursor, complete })
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

/** An older page put in front of the window (a message already in the window is not repeated). */
export function prependOlder(older: MessageWithParts[], cached: MessageWithParts[] | undefined): MessageWithParts[] {
  if (!cached?.length) return older
  const have = new Set(cached.map((m) => m.info.id))
  return [...older.filter((m) => !have.has(m.info.id)), ...cached]
}

/**
 * Whether older messages remain on the server; a call that fetches the next older page; and one
 * that fetches every older page, one after the other, each merged as it comes (Home).
 */
export function useOlderMessages(sessionID: string | undefined): { hasOlder: boolean; loadOlder(): Promise<void>; loadAll(): Promise<void> } {
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
  const loadOlder = useCallback(async () => {
    const current = windows.get(key)
    if (!sessionID || !current || current.complete || current.loading) return
    windows.set(key, { ...current, loading: true })
    changed()
    const queryKey = queryKeys.messages(scope, sessionID)
    const have = qc.getQueryData<MessageWithParts[]>(queryKey)?.length ?? 0
    try {
      // Without a cursor (the window came from an older server or a failed page): the window again, by
      // its size, for the cursor that goes with it.
      const query = current.cursor ? { limit: OLDER_PAGE, before: current.cursor } : { limit: have + OLDER_PAGE }
      const { list, cursor } = await fetchPage(scope, sessionID, query)
      const complete = !cursor || list.length < query.limit
      qc.setQueryData<MessageWithParts[]>(queryKey, (cached) => (current.cursor ? prependOlder(list, cached) : mergeWindow(list, cached)))
      const size = qc.getQueryData<MessageWithParts[]>(queryKey)?.length ?? have
      record(scope, sessionID, { limit: complete ? undefined : size, cursor: complete ? null : cursor, complete })
    } catch {
      // Left as it was: the next scroll towards the top asks again.
      windows.set(key, { ...current, loading: false })
      changed()
    }
  }, [key, qc, scope, sessionID])
  const loadAll = useCallback(async () => {
    for (let guard = 0; guard < 10_000; guard++) {
      const before = windows.get(key)
      if (!before || before.complete) return
      // Another load (the scroll's prefetch) is on its way: wait for it rather than ask twice.
      if (before.loading) await new Promise<void>((r) => setTimeout(r, 16))
      else await loadOlder()
      const after = windows.get(key)
      if (after && after === before) return // a page failed: stop, as a scroll would
    }
  }, [key, loadOlder])
  return { hasOlder, loadOlder, loadAll }
}
