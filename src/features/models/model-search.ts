/**
 * How a typed search ranks models, for every model search (the model picker, "Retry with…", the
 * command palette). The model's own name decides first — exact, then prefix, then every word
 * starting a word of the name, then every word inside it, then its letters in order — and a model
 * found only because a word is part of its provider's name comes last. Without this, "good c"
 * matched Good A (the "c" of its provider's name) and the recent Good A, listed first, kept the
 * highlight: Enter retook with a model the user did not type.
 */
import type { ModelOption } from './model-choice'

/** Best first; a model matching none of them is not listed. */
export const MATCH_TIERS = ['exact', 'prefix', 'word-prefix', 'contains', 'fuzzy', 'provider'] as const
export type MatchTier = (typeof MATCH_TIERS)[number]

const squeeze = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')
const queryWords = (query: string) => query.toLowerCase().split(/\s+/).filter(Boolean)
const nameWords = (name: string) =>
  name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)

/** `needle`'s letters appear in `hay` in order ("clsn" in "claudesonnet"). */
function inOrder(needle: string, hay: string): boolean {
  let at = 0
  for (const ch of needle) {
    at = hay.indexOf(ch, at) + 1
    if (at === 0) return false
  }
  return true
}

/** Words found in `text` as typed, or with punctuation and spaces ignored ("gpt4o" in "GPT-4o"). */
function containsAll(words: string[], text: string): boolean {
  const lower = text.toLowerCase()
  const squeezed = squeeze(text)
  return words.every((w) => lower.includes(w) || (squeeze(w).length > 0 && squeezed.includes(squeeze(w))))
}

/** How well `query` matches one name of the model (its display name or its id). */
function nameTier(name: string, query: string, words: string[]): MatchTier | undefined {
  const lower = name.toLowerCase().replace(/\s+/g, ' ').trim()
  const q = query.toLowerCase().replace(/\s+/g, ' ').trim()
  const sq = squeeze(q)
  const sname = squeeze(name)
  if (lower === q || (sq.length > 0 && sname === sq)) return 'exact'
  if (lower.startsWith(q) || (sq.length > 0 && sname.startsWith(sq))) return 'prefix'
  const parts = nameWords(name)
  if (words.every((w) => squeeze(w).length > 0 && parts.some((p) => p.startsWith(squeeze(w))))) return 'word-prefix'
  if (containsAll(words, name)) return 'contains'
  if (sq.length > 0 && inOrder(sq, sname)) return 'fuzzy'
  return undefined
}

const better = (a: MatchTier | undefined, b: MatchTier | undefined) => (a === undefined ? b : b === undefined ? a : MATCH_TIERS.indexOf(a) <= MATCH_TIERS.indexOf(b) ? a : b)

/** Where `o` ranks for `query`; undefined when it does not match at all. An empty query matches all exactly. */
export function matchTier(o: ModelOption, query: string): MatchTier | undefined {
  const words = queryWords(query)
  if (words.length === 0) return 'exact'
  const own = better(nameTier(o.modelName, query, words), nameTier(o.ref.modelID, query, words))
  if (own) return own
  // Each word somewhere in the model's or the provider's name or id ("anth sonnet").
  return containsAll(words, `${o.providerName} ${o.ref.providerID} ${o.modelName} ${o.ref.modelID}`) ? 'provider' : undefined
}

/**
 * The models matching `query`, best first. Within a tier the user's own models come first (`prefer`:
 * favourites then recent keys), then the shorter name (closer to what was typed), then the list's order.
 */
export function rankModels(options: readonly ModelOption[], query: string, prefer: readonly string[] = []): ModelOption[] {
  if (queryWords(query).length === 0) return [...options]
  const scored: { o: ModelOption; tier: number; pref: number; i: number }[] = []
  options.forEach((o, i) => {
    const tier = matchTier(o, query)
    if (tier === undefined) return
    const p = prefer.indexOf(o.key)
    scored.push({ o, tier: MATCH_TIERS.indexOf(tier), pref: p === -1 ? prefer.length : p, i })
  })
  scored.sort((a, b) => a.tier - b.tier || a.pref - b.pref || a.o.modelName.length - b.o.modelName.length || a.i - b.i)
  return scored.map((s) => s.o)
}
