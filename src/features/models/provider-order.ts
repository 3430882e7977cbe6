/**
 * The Keys dialog's provider list: the providers most people come for first, in a fixed order,
 * then every other one by name; a search narrows both. Pure, tested without rendering.
 */

export type ProviderRow = { id: string; name?: string; source?: string }

/** The providers most people connect, most asked for first (ids as opencode 1.18 names them). */
export const POPULAR_PROVIDERS = ['anthropic', 'openai', 'google', 'openrouter', 'github-copilot', 'xai', 'mistral', 'groq', 'deepseek', 'amazon-bedrock', 'azure', 'google-vertex']

/** The list's value for "add a provider of my own" (no provider id has a colon). */
export const CUSTOM_PROVIDER = ':custom'

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()

/** Every word of the query in the provider's id or name. */
export function providerMatches(p: ProviderRow, query: string): boolean {
  const hay = fold(`${p.id} ${p.name ?? ''}`)
  return fold(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w))
}

export function orderProviders(all: readonly ProviderRow[], query = ''): { popular: ProviderRow[]; rest: ProviderRow[] } {
  const shown = all.filter((p) => providerMatches(p, query))
  const rank = (id: string) => POPULAR_PROVIDERS.indexOf(id)
  const popular = shown.filter((p) => rank(p.id) >= 0).sort((a, b) => rank(a.id) - rank(b.id))
  const rest = shown.filter((p) => rank(p.id) < 0).sort((a, b) => (a.name || a.id).localeCompare(b.name || b.id))
  return { popular, rest }
}
