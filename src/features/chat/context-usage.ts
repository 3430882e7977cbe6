/**
 * How full the model's context is and what the session has cost, from the messages opencode keeps:
 * the context in use is the last answered request's tokens (what it sent and got back, cached parts
 * included), measured against the window of the model that answered it; the cost is the providers'
 * own figures added up (opencode reports 0 where a model has no price).
 */
import type { MessageWithParts, Provider } from '../../api/types'

export interface ContextUsage {
  /** Tokens the last answered request used; 0 before any answer. */
  used: number
  /** The answering model's context window, when its provider says. */
  limit: number | undefined
  /** The whole session's cost, and the last turn's (the answers to its user message). */
  sessionCost: number
  turnCost: number
}

export function contextUsage(messages: readonly MessageWithParts[], providers: readonly Provider[]): ContextUsage {
  let used = 0
  let last: { providerID: string; modelID: string; parentID: string } | undefined
  let sessionCost = 0
  for (const { info } of messages) {
    if (info.role !== 'assistant') continue
    sessionCost += info.cost || 0
    const t = info.tokens
    const total = t ? t.input + t.output + t.reasoning + t.cache.read + t.cache.write : 0
    // An answer that failed before the provider replied carries no tokens: it does not empty the context.
    if (total > 0) {
      used = total
      last = info
    }
  }
  const turnParent = [...messages].reverse().find((m) => m.info.role === 'assistant')?.info
  const turnCost =
    turnParent?.role === 'assistant' ? messages.reduce((sum, m) => sum + (m.info.role === 'assistant' && m.info.parentID === turnParent.parentID ? m.info.cost || 0 : 0), 0) : 0
  const limit = last ? providers.find((p) => p.id === last!.providerID)?.models[last.modelID]?.limit?.context : undefined
  return { used, limit: limit && limit > 0 ? limit : undefined, sessionCost, turnCost }
}

/** 12345 → "12.3K", 999 → "999": short enough for a header. */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(1)}M`
  if (n >= 10_000) return `${Math.round(n / 1000)}K`
  if (n >= 1000) return `${+(n / 1000).toFixed(1)}K`
  return String(n)
}

/** Dollars as providers price them: cents for sums over a cent, four decimals for fractions of one. */
export function formatCost(usd: number): string {
  if (usd >= 0.01) return `$${usd.toFixed(2)}`
  return `$${usd.toFixed(4)}`
}
