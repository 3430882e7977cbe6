/** The current server connection + project directory, provided once and read by every query hook. */
import { createContext, useContext, type ReactNode } from 'react'
import type { Scope } from './query-keys'

const ScopeContext = createContext<Scope | null>(null)

export function ScopeProvider({ scope, children }: { scope: Scope; children: ReactNode }) {
  return <ScopeContext.Provider value={scope}>{children}</ScopeContext.Provider>
}

export function useScope(): Scope {
  const scope = useContext(ScopeContext)
  if (!scope) throw new Error('useScope outside a ScopeProvider')
  return scope
}

/** The project folder when there is one (tool cards show paths relative to it; tests may render without). */
export function useOptionalDirectory(): string | undefined {
  return useContext(ScopeContext)?.directory
}
