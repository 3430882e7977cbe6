/**
 * What the model palette lists for a query. With nothing typed: favourites pinned first, then recent
 * models, then every model grouped by provider. While searching: one list, best match first
 * (model-search.ts), so the highlighted first row is the model the words name — not a recent or
 * starred one that only matched through its provider's name. Listing is ours (not cmdk's scorer):
 * cmdk would re-sort rows by its own fuzzy score, and the thousands of rows ~230 providers bring
 * must be capped before React renders them.
 */
import type { ModelOption } from './model-choice'
import { matchTier, rankModels } from './model-search'

/** Rows rendered at most; typing narrows further. Keeps opening the palette instant. */
export const ROW_LIMIT = 300

export interface ModelSections {
  favourites: ModelOption[]
  recent: ModelOption[]
  groups: { provider: string; options: ModelOption[] }[]
  /** While searching: every match, best first (the three lists above are then empty). */
  matches: ModelOption[]
  /** Rows left out by ROW_LIMIT. */
  hidden: number
}

/** Every word of the query is part of the model's or provider's name or id ("gpt4o", "anth sonnet"). */
export function matchesQuery(o: ModelOption, query: string): boolean {
  return matchTier(o, query) !== undefined
}

export function modelSections(options: readonly ModelOption[], query: string, prefs: { favourites: readonly string[]; recent: readonly string[] }): ModelSections {
  if (query.trim()) {
    const ranked = rankModels(options, query, [...prefs.favourites, ...prefs.recent])
    return { favourites: [], recent: [], groups: [], matches: ranked.slice(0, ROW_LIMIT), hidden: Math.max(0, ranked.length - ROW_LIMIT) }
  }
  const byKey = new Map(options.map((o) => [o.key, o]))
  const pick = (keys: readonly string[]) => keys.flatMap((k) => (byKey.has(k) ? [byKey.get(k)!] : []))
  const favourites = pick(prefs.favourites)
  // A starred model is already at the top; listing it again under Recent would only push others down.
  const recent = pick(prefs.recent.filter((k) => !prefs.favourites.includes(k)))
  const groups: ModelSections['groups'] = []
  for (const o of options.slice(0, ROW_LIMIT)) {
    const last = groups.at(-1)
    if (last && last.provider === o.providerName) last.options.push(o)
    else groups.push({ provider: o.providerName, options: [o] })
  }
  return { favourites, recent, groups, matches: [], hidden: Math.max(0, options.length - ROW_LIMIT) }
}

/** The rows in the order the palette shows them (the first is the one highlighted after typing). */
export function sectionRows(s: ModelSections): { section: 'fav' | 'recent' | 'all' | 'match'; option: ModelOption }[] {
  return [
    ...s.favourites.map((option) => ({ section: 'fav' as const, option })),
    ...s.recent.map((option) => ({ section: 'recent' as const, option })),
    ...s.groups.flatMap((g) => g.options.map((option) => ({ section: 'all' as const, option }))),
    ...s.matches.map((option) => ({ section: 'match' as const, option })),
  ]
}

/** 200000 → "200K", 1048576 → "1M": the context size as a glance, not a number to read. */
export function formatContext(tokens: number | undefined): string | undefined {
  if (!tokens || tokens <= 0) return undefined
  if (tokens >= 1_000_000) return `${+(tokens / 1_000_000).toFixed(1)}M`
  if (tokens >= 1000) return `${Math.round(tokens / 1000)}K`
  return String(tokens)
}

/** What a model takes besides text, as short badges. */
export function inputBadges(o: ModelOption): string[] {
  const caps = o.capabilities
  if (!caps) return []
  const out: string[] = []
  if (caps.attachment) out.push('files')
  if (caps.input?.image) out.push('images')
  return out
}
