/**
 * Query keys for opencode server state. Each is scoped by the server connection (so a restarted
 * server never serves stale cache) and by the project directory (opencode instances are per folder).
 */
export interface Scope {
  /** Changes whenever the host's server (re)becomes ready. */
  connection: string
  directory: string
}

const base = (s: Scope) => ['opencode', s.connection, s.directory] as const

export const queryKeys = {
  all: (s: Scope) => base(s),
  sessions: (s: Scope) => [...base(s), 'sessions'] as const,
  archivedSessions: (s: Scope) => [...base(s), 'sessions', 'archived'] as const,
  messages: (s: Scope, sessionID: string) => [...base(s), 'messages', sessionID] as const,
  status: (s: Scope) => [...base(s), 'status'] as const,
  configProviders: (s: Scope) => [...base(s), 'config.providers'] as const,
  providerList: (s: Scope) => [...base(s), 'provider.list'] as const,
  providerAuth: (s: Scope) => [...base(s), 'provider.auth'] as const,
  config: (s: Scope) => [...base(s), 'config'] as const,
  agents: (s: Scope) => [...base(s), 'agents'] as const,
  permissions: (s: Scope) => [...base(s), 'permissions'] as const,
  questions: (s: Scope) => [...base(s), 'questions'] as const,
}
