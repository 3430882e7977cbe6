import { describe, expect, it } from 'vitest'
import { dayLabel, groupSessions, matchesQuery } from '../../../src/features/sessions/session-groups'
import { session } from './fixtures'

const NOW = new Date(2026, 10, 23, 15, 0).getTime()
const at = (y: number, m: number, d: number, h = 12) => new Date(y, m, d, h).getTime()

describe('session groups', () => {
  it('labels by local day: today, yesterday, the previous week, then months (with the year when not this one)', () => {
    expect(dayLabel(at(2026, 10, 23, 0), NOW)).toBe('Today')
    expect(dayLabel(at(2026, 10, 22, 23), NOW)).toBe('Yesterday')
    expect(dayLabel(at(2026, 10, 17), NOW)).toBe('Previous 7 days')
    expect(dayLabel(at(2026, 9, 2), NOW)).toBe(new Date(2026, 9, 2).toLocaleDateString(undefined, { month: 'long' }))
    expect(dayLabel(at(2025, 9, 2), NOW)).toMatch(/2025/)
  })

  it('keeps the newest first inside and across groups, and drops what the search does not match', () => {
    const list = [
      session('old', at(2026, 9, 2), { title: 'Café menu' }),
      session('today2', at(2026, 10, 23, 14), { title: 'Second today' }),
      session('today1', at(2026, 10, 23, 9), { title: 'first today' }),
      session('yday', at(2026, 10, 22), { title: '' }),
    ]
    const groups = groupSessions(list, NOW)
    expect(groups.map((g) => [g.label, g.sessions.map((s) => s.id)])).toEqual([
      ['Today', ['today2', 'today1']],
      ['Yesterday', ['yday']],
      [dayLabel(at(2026, 9, 2), NOW), ['old']],
    ])
    expect(groupSessions(list, NOW, 'TODAY first').flatMap((g) => g.sessions.map((s) => s.id))).toEqual(['today1'])
    expect(groupSessions(list, NOW, 'untitled').flatMap((g) => g.sessions.map((s) => s.id))).toEqual(['yday'])
    expect(matchesQuery('Café menu', 'cafe')).toBe(true)
    expect(matchesQuery('Café menu', 'tea')).toBe(false)
  })
})
