import { describe, expect, it } from 'vitest'
import { pairForkedIds } from '../../../core/retake/fork-session'

const m = (id: string, role: string) => ({ info: { id, role } })

describe('pairForkedIds: the fork’s id of each copied question', () => {
  it('pairs position by position, the original’s later messages (a turn still answering) left out', () => {
    const original = [m('u1', 'user'), m('a1', 'assistant'), m('u2', 'user'), m('a2', 'assistant'), m('u3', 'user')]
    const fork = [m('f1', 'user'), m('g1', 'assistant'), m('f2', 'user'), m('g2', 'assistant')]
    expect(pairForkedIds(original, fork)).toEqual({ u1: 'f1', u2: 'f2' })
  })

  it('pairs nothing when the lists are not what a fork copied (roles out of line, or a longer fork)', () => {
    expect(pairForkedIds([m('u1', 'user'), m('a1', 'assistant')], [m('f1', 'assistant')])).toEqual({})
    expect(pairForkedIds([m('u1', 'user')], [m('f1', 'user'), m('g1', 'assistant')])).toEqual({})
  })
})
