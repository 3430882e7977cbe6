import { describe, expect, it } from 'vitest'
import { answersTo, laterTurns, retakeEntry, retakeTargetFor } from '../../../shared/retake/retake-target'

const m = (id: string, role: string, parentID?: string) => ({ info: { id, role, parentID } })
// Client-supplied ids need not sort: list order is what counts.
const list = [m('msg_b', 'user'), m('msg_a1', 'assistant', 'msg_b'), m('msg_a2', 'assistant', 'msg_b'), m('msg_0', 'user'), m('msg_z', 'assistant', 'msg_0'), m('msg_c', 'user')]

describe('retake targets', () => {
  it('a user message retakes itself; an assistant message retakes the turn it answers', () => {
    expect(retakeTargetFor(list, 'msg_b')).toBe('msg_b')
    expect(retakeTargetFor(list, 'msg_a2')).toBe('msg_b')
    expect(retakeTargetFor(list, 'msg_z')).toBe('msg_0')
  })
  it('nothing to retake for unknown ids or orphans', () => {
    expect(retakeTargetFor(list, 'msg_nope')).toBeNull()
    expect(retakeTargetFor([m('msg_x', 'assistant', 'msg_gone')], 'msg_x')).toBeNull()
  })
  it('counts the later user turns a retake discards, by list order', () => {
    expect(laterTurns(list, 'msg_b')).toBe(2)
    expect(laterTurns(list, 'msg_0')).toBe(1)
    expect(laterTurns(list, 'msg_c')).toBe(0)
  })
  it('collects every step of the answer being replaced', () => {
    expect(answersTo(list, 'msg_b').map((x) => x.info.id)).toEqual(['msg_a1', 'msg_a2'])
  })
})

describe('retakeEntry: one decision for ↺, R and Retake with…', () => {
  it('a turn that changed files always opens the restore sheet, whatever comes after it', () => {
    expect(retakeEntry(true, 0)).toBe('sheet')
    expect(retakeEntry(true, 3)).toBe('sheet')
    expect(retakeEntry(false, 2)).toBe('confirm')
    expect(retakeEntry(false, 0)).toBe('now')
  })
})
