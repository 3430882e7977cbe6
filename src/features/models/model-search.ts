/**
 * How a typed search ranks models, for every model search (the model picker, "Retake with…", the
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

/** A text's forms the tiers compare: lower case with single spaces, without punctuation or spaces, its words. */
interface Forms {
  lower: string
  squeezed: string
  words: string[]
}
const toForms = (text: string): Forms => {
  const lower = text.toLowerCase().replace(/\s+/g, ' ').trim()
  return { lower, squeezed: squeeze(text), words: lower.split(/[^\p{L}\p{N}]+/u).filter(Boolean) }
}

// Names come from the server's catalogue and a keystroke ranks thousands of them: each name's forms
// are worked out once. The bound keeps a long-lived window from growing without end.
const namesSeen = new Map<string, Forms>()
function nameForms(name: string): Forms {
  let f = namesSeen.get(name)
  if (!f) {
    if (namesSeen.size > 50_000) namesSeen.clear()
    f = toForms(name)
    namesSeen.set(name, f)
  }
  return f
}

/** The query's forms, and each typed word as typed and squeezed. */
interface Query extends Forms {
  typed: { word: string; squeezed: string }[]
}
const toQuery = (query: string): Query => {
  const f = toForms(query)
  return {
    ...f,
    typed: f.lower
      .split(' ')
      .filter(Boolean)
      .map((word) => ({ word, squeezed: squeeze(word) })),
  }
}

/** `needle`'s letters appear in `hay` in order ("clsn" in "claudesonnet"). */
function inOrder(needle: string, hay: string): boolean {
  let at = 0
  for (const ch of needle) {
    at = hay.indexOf(ch, at) + 1
    if (at === 0) return false
  }
  return true
}

/** Every typed word is in `text` as typed, or with punctuation and spaces ignored ("gpt4o" in "GPT-4o"). */
const containsAll = (q: Query, text: Forms) => q.typed.every((t) => text.lower.includes(t.word) || (t.squeezed.length > 0 && text.squeezed.includes(t.squeezed)))

/** How well the query matches one name of the model (its display name or its id). */
function nameTier(name: string, q: Query): MatchTier | undefined {
  const f = nameForms(name)
  const sq = q.squeezed
  if (f.lower === q.lower || (sq.length > 0 && f.squeezed === sq)) return 'exact'
  if (f.lower.startsWith(q.lower) || (sq.length > 0 && f.squeezed.startsWith(sq))) return 'prefix'
  if (q.typed.every((t) => t.squeezed.length > 0 && f.words.some((w) => w.startsWith(t.squeezed)))) return 'word-prefix'
  if (containsAll(q, f)) return 'contains'
  if (sq.length > 0 && inOrder(sq, f.squeezed)) return 'fuzzy'
  return undefined
}

const better = (a: MatchTier | undefined, b: MatchTier | undefined) => (a === undefined ? b : b === undefined ? a : MATCH_TIERS.indexOf(a) <= MATCH_TIERS.indexOf(b) ? a : b)

function tierFor(o: ModelOption, q: Query): MatchTier | undefined {
  if (q.typed.length === 0) return 'exact'
  const own = better(nameTier(o.modelName, q), nameTier(o.ref.modelID, q))
  if (own) return own
  // Each word somewhere in the model's or the provider's name or id ("anth sonnet").
  return containsAll(q, nameForms(`${o.providerName} ${o.ref.providerID} ${o.modelName} ${o.ref.modelID}`)) ? 'provider' : undefined
}

/** Where `o` ranks for `query`; undefined when it does not match at all. An empty query matches all exactly. */
export const matchTier = (o: ModelOption, query: string): MatchTier | undefined => tierFor(o, toQuery(query))

/**
 * The models matching `query`, best first. Within a tier the user's own models come first (`prefer`:
 * favourites then recent keys), then the shorter name (closer to what was typed), then the list's order.
 */
export function rankModels(options: readonly ModelOption[], query: string, prefer: readonly string[] = []): ModelOption[] {
  const q = toQuery(query)
  if (q.typed.length === 0) return [...options]
  const scored: { o: ModelOption; tier: number; pref: number; i: number }[] = []
  options.forEach((o, i) => {
    const tier = tierFor(o, q)
    if (tier === undefined) return
    const p = prefer.indexOf(o.key)
    scored.push({ o, tier: MATCH_TIERS.indexOf(tier), pref: p === -1 ? prefer.length : p, i })
  })
  scored.sort((a, b) => a.tier - b.tier || a.pref - b.pref || a.o.modelName.length - b.o.modelName.length || a.i - b.i)
  return scored.map((s) => s.o)
}
