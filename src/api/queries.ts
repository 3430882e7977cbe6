/** React Query hooks for opencode server state (thin: the call, its unwrap, its key). */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { clientFor } from './client'
import { queryKeys } from './query-keys'
import { useScope } from './scope'
import { sortSessions } from './apply-event'
import { unwrap } from './unwrap'
import type { MessageWithParts, Session, StatusMap } from './types'

export function useSessions() {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.sessions(scope),
    queryFn: async (): Promise<Session[]> => {
      const list = unwrap('session.list', await clientFor(scope.directory).session.list({ roots: true }))
      return sortSessions(list.filter((s) => !s.parentID && !s.time.archived))
    },
  })
}

/** Archived sessions, newest first (fetched only while the list shows them). */
export function useArchivedSessions(enabled: boolean) {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.archivedSessions(scope),
    enabled,
    queryFn: async (): Promise<Session[]> => {
      const list = unwrap('session.list', await clientFor(scope.directory).session.list({ roots: true }))
      return sortSessions(list.filter((s) => !s.parentID && !!s.time.archived))
    },
  })
}

/** Messages fetched per page: the newest page opens a session; older pages follow in the background. */
export const MESSAGE_PAGE = 100
/** The latest load of each session's messages: an older one still paging back stops. */
const loads = new Map<string, number>()

export function useMessages(sessionID: string | undefined) {
  const scope = useScope()
  const qc = useQueryClient()
  return useQuery({
    queryKey: queryKeys.messages(scope, sessionID ?? ''),
    enabled: !!sessionID,
    // Events keep this current; a refetch would only race with the stream.
    staleTime: Infinity,
    queryFn: async (): Promise<MessageWithParts[]> => {
      const key = queryKeys.messages(scope, sessionID!)
      const load = (loads.get(JSON.stringify(key)) ?? 0) + 1
      loads.set(JSON.stringify(key), load)
      const client = clientFor(scope.directory)
      const first = await client.session.messages({ sessionID: sessionID!, limit: MESSAGE_PAGE })
      const page = unwrap('session.messages', first)
      // Opening a long session waits for its newest page only; the rest comes in behind it, each
      // older page put in front of what the cache holds (events may have added to it meanwhile).
      let cursor = first.response?.headers.get('x-next-cursor') ?? null
      void (async () => {
        // Behind the first page: React Query stores it when this function returns.
        await new Promise((r) => setTimeout(r, 0))
        while (cursor && loads.get(JSON.stringify(key)) === load) {
          const r = await client.session.messages({ sessionID: sessionID!, limit: MESSAGE_PAGE, before: cursor })
          if (loads.get(JSON.stringify(key)) !== load) return
          const older = unwrap('session.messages', r)
          qc.setQueryData<MessageWithParts[]>(key, (cur) => {
            const have = new Set((cur ?? []).map((m) => m.info.id))
            return [...older.filter((m) => !have.has(m.info.id)), ...(cur ?? [])]
          })
          cursor = r.response?.headers.get('x-next-cursor') ?? null
        }
      })().catch(() => {
        // The older history stays unloaded; a reopen of the session tries again.
      })
      return page
    },
  })
}

export function useStatusMap() {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.status(scope),
    staleTime: Infinity,
    queryFn: async (): Promise<StatusMap> => unwrap('session.status', await clientFor(scope.directory).session.status()),
  })
}

/** Configured providers with their models, and each provider's default model. */
export function useConfigProviders() {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.configProviders(scope),
    staleTime: 60_000,
    queryFn: async () => unwrap('config.providers', await clientFor(scope.directory).config.providers()),
  })
}

/** The server's config (for its default `model`). */
export function useServerConfig() {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.config(scope),
    staleTime: 60_000,
    queryFn: async () => unwrap('config.get', await clientFor(scope.directory).config.get()),
  })
}

/** Every provider opencode knows (for entering API keys), and which are connected. */
export function useProviderList(enabled: boolean) {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.providerList(scope),
    enabled,
    staleTime: 60_000,
    queryFn: async () => unwrap('provider.list', await clientFor(scope.directory).provider.list()),
  })
}

export function useAgents() {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.agents(scope),
    staleTime: 60_000,
    queryFn: async () => unwrap('app.agents', await clientFor(scope.directory).app.agents()),
  })
}
