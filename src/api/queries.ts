/** React Query hooks for opencode server state (thin: the call, its unwrap, its key). */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { clientFor } from './client'
import { queryKeys } from './query-keys'
import { useScope } from './scope'
import { sortSessions } from './apply-event'
import { unwrap } from '../../shared/unwrap'
import { fetchMessages } from './message-window'
import { shareMessagesById } from './share-by-id'
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

export function useMessages(sessionID: string | undefined) {
  const scope = useScope()
  const qc = useQueryClient()
  return useQuery({
    queryKey: queryKeys.messages(scope, sessionID ?? ''),
    enabled: !!sessionID,
    // Events keep this current; a refetch would only race with the stream.
    staleTime: Infinity,
    structuralSharing: shareMessagesById,
    // The newest messages first; older ones as the reader scrolls up (src/api/message-window.ts).
    queryFn: (): Promise<MessageWithParts[]> => fetchMessages(qc, scope, sessionID!),
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

/** opencode's commands for this project (built-in, the config's, `.opencode/command/*.md`), for the / menu. */
export function useServerCommands() {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.commands(scope),
    staleTime: 60_000,
    queryFn: async () => unwrap('command.list', await clientFor(scope.directory).command.list()),
  })
}

/** The project's files whose path matches `query` (opencode's search: fuzzy, .gitignore honoured), for `@`. */
export function useFindFiles(query: string | null) {
  const scope = useScope()
  return useQuery({
    queryKey: [...queryKeys.commands(scope).slice(0, -1), 'find.files', query] as const,
    enabled: query !== null,
    staleTime: 10_000,
    placeholderData: (previous) => previous,
    queryFn: async () => unwrap('find.files', await clientFor(scope.directory).find.files({ query: query ?? '', dirs: 'true', limit: 12 })),
  })
}
