/** The timeline's reading rules: the keys it handles, and when it follows the end of the conversation. */
import { describe, expect, it } from 'vitest'
import { followAfterScroll, timelineKey } from '../../../src/features/chat/timeline-input'
import { shareMessagesById } from '../../../src/api/share-by-id'
import { user } from './fixtures'

const el = (tag: string, editable = false) => Object.assign(document.createElement(tag), editable ? { contentEditable: 'true' } : {})

describe('timelineKey', () => {
  it('takes Home and End (the session’s real ends) and reports PageUp / ArrowUp as letting go', () => {
    const region = el('div')
    expect(timelineKey('Home', region, false)).toBe('home')
    expect(timelineKey('End', region, false)).toBe('end')
    expect(timelineKey('PageUp', region, false)).toBe('up')
    expect(timelineKey('ArrowUp', region, false)).toBe('up')
    expect(timelineKey('PageDown', region, false)).toBeNull()
    expect(timelineKey('a', region, false)).toBeNull()
  })

  it('leaves keys typed into a field, and modified keys, alone', () => {
    expect(timelineKey('Home', el('textarea'), false)).toBeNull()
    expect(timelineKey('End', el('input'), false)).toBeNull()
    const editable = el('div')
    Object.defineProperty(editable, 'isContentEditable', { value: true })
    expect(timelineKey('Home', editable, false)).toBeNull()
    expect(timelineKey('Home', el('div'), true)).toBeNull()
  })
})

describe('followAfterScroll', () => {
  it('lets go as soon as the reader is above the bottom zone', () => {
    expect(followAfterScroll(true, false, true)).toBe(false)
    expect(followAfterScroll(true, false, false)).toBe(false)
  })

  it('comes back only when the reader arrives at the bottom going down', () => {
    expect(followAfterScroll(false, true, false)).toBe(true)
    // A small move up inside the bottom zone after letting go does not re-stick...
    expect(followAfterScroll(false, true, true)).toBe(false)
    // ...and a jump up while stuck (a last row re-measured shorter) stays stuck.
    expect(followAfterScroll(true, true, true)).toBe(true)
  })

  it('a scroll the timeline made itself (keeping the row being read in place) changes nothing', () => {
    expect(followAfterScroll(false, true, false, true)).toBe(false)
    expect(followAfterScroll(true, false, false, true)).toBe(true)
  })
})

describe('shareMessagesById', () => {
  const list = Array.from({ length: 5 }, (_, i) => user(`msg_${i}`, `m${i}`))

  it('keeps every unchanged message object when an older page is put in front', () => {
    const older = [user('msg_a', 'older')]
    const fresh = [...older, ...list.map((m) => structuredClone(m))]
    const shared = shareMessagesById(list, fresh) as typeof list
    expect(shared[0]).toBe(older[0])
    for (let i = 0; i < list.length; i++) expect(shared[i + 1]).toBe(list[i])
  })

  it('returns the previous list itself when nothing changed, and a changed message as new', () => {
    expect(
      shareMessagesById(
        list,
        list.map((m) => structuredClone(m)),
      ),
    ).toBe(list)
    const changed = list.map((m) => structuredClone(m))
    changed[2] = user('msg_2', 'edited')
    const shared = shareMessagesById(list, changed) as typeof list
    expect(shared).not.toBe(list)
    expect(shared[2]).not.toBe(list[2])
    expect(shared[3]).toBe(list[3])
  })
})
