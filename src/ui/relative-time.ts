/** "just now", "5 min ago", "3 h ago", "2 d ago", then a date: compact enough for the session list. */
export function relativeTime(then: number, now: number): string {
  const s = Math.round((now - then) / 1000)
  if (s < 45) return 'just now'
  const m = Math.round(s / 60)
  if (m < 60) return `${m} min ago`
  const h = Math.round(m / 60)
  if (h < 24) return `${h} h ago`
  const d = Math.round(h / 24)
  if (d < 7) return `${d} d ago`
  return new Date(then).toLocaleDateString()
}
