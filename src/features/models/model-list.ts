/**
 * What the model palette lists for a query: favourites pinned first, then recent models, then every
 * model grouped by provider. Filtering is ours (not cmdk's scorer) so the order stays predictable —
 * cmdk would re-sort rows by fuzzy score and scatter a provider's models — and so the thousands of
 * rows ~230 providers bring can be capped before React renders them.
 */
import type { ModelOption } from './model-choice'

/** Rows rendered at most; typing narrows further. Keeps opening the palette instant. */
export const ROW_LIMIT = 300

export interface ModelSections {
  favourites: ModelOption[]
  recent: ModelOption[]
  groups: { provider: string; options: ModelOption[] }[]
  /** Provider rows left out by ROW_LIMIT. */
  hidden: number
}

const compact = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '')

/** Every word of the query is part of the model's or provider's name or id ("gpt4o", "anth sonnet"). */
export function matchesQuery(o: ModelOption, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return true
  const text = `${o.providerName} ${o.ref.providerID} ${o.modelName} ${o.ref.modelID}`.toLowerCase()
  const squeezed = compact(text)
  return words.every((w) => text.includes(w) || (compact(w).length > 0 && squeezed.includes(compact(w))))
}

export function modelSections(options: readonly ModelOption[], query: string, prefs: { favourites: readonly string[]; recent: readonly string[] }): ModelSections {
  const byKey = new Map(options.map((o) => [o.key, o]))
  const pick = (keys: readonly string[]) =>
    keys.flatMap((k) => {
      const o = byKey.get(k)
      return o && matchesQuery(o, query) ? [o] : []
    })
  const favourites = pick(prefs.favourites)
  // A starred model is already at the top; listing it again under Recent would only push others down.
  const recent = pick(prefs.recent.filter((k) => !prefs.favourites.includes(k)))
  const groups: ModelSections['groups'] = []
  let rows = 0
  let hidden = 0
  for (const o of options) {
    if (!matchesQuery(o, query)) continue
    if (rows >= ROW_LIMIT) {
      hidden++
      continue
    }
    rows++
    const last = groups.at(-1)
    if (last && last.provider === o.providerName) last.options.push(o)
    else groups.push({ provider: o.providerName, options: [o] })
  }
  return { favourites, recent, groups, hidden }
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
