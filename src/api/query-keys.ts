/**
 * Every query key of the renderer, in one place. opencode server state (queryKeys) is scoped by
 * the server connection (so a restarted server never serves stale cache) and by the project
 * directory (opencode instances are per folder); the host's own state (hostKeys, checkpointKeys,
 * retakeKeys) starts with 'host'.
 *
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
  commands: (s: Scope) => [...base(s), 'commands'] as const,
  permissions: (s: Scope) => [...base(s), 'permissions'] as const,
  /** Requests whose turn was stopped while they waited: shown answered, never answerable (kept locally). */
  stoppedPermissions: (s: Scope) => [...base(s), 'stopped-permissions'] as const,
  questions: (s: Scope) => [...base(s), 'questions'] as const,
}

/** The host's own state (Electron main or the browser-mode host, through the bridge). */
export const hostKeys = {
  appInfo: ['host', 'app.info'] as const,
  serverStatus: ['host', 'server.status'] as const,
  recent: ['host', 'projects.recent'] as const,
  settings: ['host', 'settings'] as const,
  browse: (path: string | undefined) => ['host', 'projects.browse', path ?? '~'] as const,
}

/** The checkpoint store of a project (every key under `all`; `any` is every project's). */
export const checkpointKeys = {
  any: ['host', 'checkpoints'] as const,
  all: (directory: string) => ['host', 'checkpoints', directory] as const,
  turns: (directory: string, sessionID: string) => ['host', 'checkpoints', directory, 'turns', sessionID] as const,
  stats: (directory: string) => ['host', 'checkpoints', directory, 'stats'] as const,
  lastRestore: (directory: string, sessionID: string | undefined) => ['host', 'checkpoints', directory, 'last-restore', sessionID] as const,
  changes: (directory: string, sessionID: string, messageID: string) => ['host', 'checkpoints', directory, 'changes', sessionID, messageID] as const,
  restoreChanges: (directory: string, restoreId: string) => ['host', 'checkpoints', directory, 'restoreChanges', restoreId] as const,
}

/** Saved retakes and kept attempts of a session. */
export const retakeKeys = {
  saved: (sessionID: string) => ['host', 'savedRetakes.list', sessionID] as const,
  attempts: (sessionID: string) => ['host', 'attempts.list', sessionID] as const,
}
