/**
 * The session list's shape: a search over titles, then groups by the day a session was last active
 * (Today, Yesterday, Previous 7 days, then one group per month), newest first inside each group.
 * Pure, so the list's order and headings are tested without rendering.
 */
import type { Session } from '../../api/types'

export interface SessionGroup {
  label: string
  sessions: Session[]
}

/** Every word of the query must appear in the title (case- and accent-insensitive), in any order. */
export function matchesQuery(title: string, query: string): boolean {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase()
  const hay = fold(title)
  return fold(query)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => hay.includes(word))
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

export function groupSessions(sessions: readonly Session[], now: number, query = ''): SessionGroup[] {
  const shown = sessions.filter((s) => matchesQuery(s.title || 'Untitled', query)).sort((a, b) => b.time.updated - a.time.updated)
  const groups: SessionGroup[] = []
  for (const s of shown) {
    const label = dayLabel(s.time.updated, now)
    const last = groups.at(-1)
    if (last?.label === label) last.sessions.push(s)
    else groups.push({ label, sessions: [s] })
  }
  return groups
}
