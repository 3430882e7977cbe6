/**
 * The session list's shape: a search over titles and the text of loaded messages, then groups by the day a session was last active
 * (Today, Yesterday, Previous 7 days, then one group per month), newest first inside each group.
 * Pure, so the list's order and headings are tested without rendering.
 */
import type { Session } from '../../api/types'

export interface SessionGroup {
  label: string
  sessions: Session[]
}

/** Case- and accent-insensitive form of a text (search compares these). */
export function foldText(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
}

const wordsOf = (query: string) => foldText(query).split(/\s+/).filter(Boolean)

/** Every word of the query must appear in the text (case- and accent-insensitive), in any order. */
export function matchesQuery(title: string, query: string): boolean {
  const hay = foldText(title)
  return wordsOf(query).every((word) => hay.includes(word))
}

/**
 * A session's messages as one searchable text (folded), and as shown (for the snippet). NFD
 * folding can change lengths, so the snippet is cut from the folded text's own offsets only when
 * both have the same length; otherwise it is the folded text itself.
 */
export interface SearchText {
  shown: string
  folded: string
}

export function searchTextOf(texts: readonly string[]): SearchText {
  const shown = texts.join('\n').replace(/\s+/g, ' ')
  return { shown, folded: foldText(shown) }
}

/** Around the first word of the query found in the text: what the list shows under the title. */
export function searchSnippet(text: SearchText, query: string, width = 60): string | undefined {
  const word = wordsOf(query).find((w) => text.folded.includes(w))
  if (!word) return undefined
  const at = text.folded.indexOf(word)
  const source = text.shown.length === text.folded.length ? text.shown : text.folded
  const start = Math.max(0, at - Math.floor((width - word.length) / 2))
  const end = Math.min(source.length, start + width)
  return `${start > 0 ? '…' : ''}${source.slice(start, end).trim()}${end < source.length ? '…' : ''}`
}

/** Whether a session matches: every word in its title or in its loaded messages. */
export function sessionMatches(title: string, text: SearchText | undefined, query: string): boolean {
  const hay = `${foldText(title)}\n${text?.folded ?? ''}`
  return wordsOf(query).every((word) => hay.includes(word))
}

const DAY_MS = 86_400_000

function startOfDay(t: number): number {
  const d = new Date(t)
  d.setHours(0, 0, 0, 0)
  return d.getTime()
}

/** The heading a session active at `then` goes under, seen at `now` (local time). */
export function dayLabel(then: number, now: number): string {
  const today = startOfDay(now)
  if (then >= today) return 'Today'
  if (then >= today - DAY_MS) return 'Yesterday'
  if (then >= today - 7 * DAY_MS) return 'Previous 7 days'
  const d = new Date(then)
  const sameYear = d.getFullYear() === new Date(now).getFullYear()
  return d.toLocaleDateString(undefined, sameYear ? { month: 'long' } : { month: 'long', year: 'numeric' })
}

export function groupSessions(sessions: readonly Session[], now: number, query = '', textOf: (sessionID: string) => SearchText | undefined = () => undefined): SessionGroup[] {
  const shown = sessions.filter((s) => sessionMatches(s.title || 'Untitled', textOf(s.id), query)).sort((a, b) => b.time.updated - a.time.updated)
  const groups: SessionGroup[] = []
  for (const s of shown) {
    const label = dayLabel(s.time.updated, now)
    const last = groups.at(-1)
    if (last?.label === label) last.sessions.push(s)
    else groups.push({ label, sessions: [s] })
  }
  return groups
}
