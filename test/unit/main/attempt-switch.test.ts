import { describe, expect, it } from 'vitest'
import { misplacedAfterReplay, planSwitch, replayEvents, timesInOrder, type StoredMessage } from '../../../core/retake/attempt-switch'
import type { Attempt } from '../../../shared/ipc-contract'

const msg = (id: string, role: string, parts = 1, model?: string): StoredMessage => ({
  info: { id, role, ...(model ? { providerID: 'p', modelID: model } : {}) },
  parts: Array.from({ length: parts }, (_, i) => ({ id: `${id}_p${i}` })),
})
// The session now (ids ascend in time, like opencode's): turn 1 (u1), the retaken turn 2 (u2) answered by model "new", then turn 3.
const session = [
  msg('m1u1', 'user'),
  msg('m2a1', 'assistant'),
  msg('m3u2', 'user'),
  msg('m4a2new', 'assistant', 2, 'new'),
  msg('m5u3', 'user'),
  msg('m6a3', 'assistant', 1, 'new3'),
]
const attempt: Attempt = { sessionID: 's', messageID: 'm3u2', at: 100, messages: [msg('m4a2old', 'assistant', 1, 'old')], user: msg('m3u2', 'user'), restoreId: 'rst_old' }

describe('planSwitch: continue from an attempt', () => {
  it('keeps the whole current branch, removes it newest first down to the question, and replays the attempt', () => {
    const p = planSwitch({ attempt, messages: session, now: 200, hasFilePlan: true, leaveFiles: false })
    if ('error' in p) throw new Error(p.error)
    expect(p.leaving).toMatchObject({ sessionID: 's', messageID: 'm3u2', at: 200, model: { providerID: 'p', modelID: 'new3' } })
    expect((p.leaving!.messages as StoredMessage[]).map((m) => m.info.id)).toEqual(['m4a2new', 'm5u3', 'm6a3'])
    expect(p.remove).toEqual(['m6a3', 'm5u3', 'm4a2new', 'm3u2'])
    expect(p.replay.map((m) => m.info.id)).toEqual(['m3u2', 'm4a2old'])
    expect([p.rollBack, p.bringBack]).toEqual([true, 'rst_old'])
  })

  it('"conversation only" moves no file either way', () => {
    const p = planSwitch({ attempt, messages: session, now: 200, hasFilePlan: true, leaveFiles: true })
    expect(p).toMatchObject({ rollBack: false, bringBack: null })
  })

  it('an attempt kept without its question replays today’s', () => {
    const { user: _u, ...noQuestion } = attempt
    const p = planSwitch({ attempt: noQuestion, messages: session, now: 1, hasFilePlan: false, leaveFiles: false })
    expect('replay' in p && p.replay[0]).toBe(session[2])
  })

  it('a switch cut off while it rewrote the conversation is finished: nothing kept twice, no file touched, what is left of the branch removed', () => {
    const cut = { ...attempt, switching: true }
    // The crash came after a3 and the question were deleted, before u3 and a2new.
    const p = planSwitch({ attempt: cut, messages: [session[0]!, session[1]!, session[3]!, session[4]!], now: 1, hasFilePlan: true, leaveFiles: false })
    if ('error' in p) throw new Error(p.error)
    expect([p.leaving, p.rollBack, p.bringBack]).toEqual([null, false, null])
    expect(p.remove).toEqual(['m5u3', 'm4a2new'])
    expect(p.replay.map((m) => m.info.id)).toEqual(['m3u2', 'm4a2old'])
    // Cut off before the first delete: the question goes too.
    const early = planSwitch({ attempt: cut, messages: session, now: 1, hasFilePlan: true, leaveFiles: false })
    expect('remove' in early && early.remove).toEqual(['m3u2', 'm6a3', 'm5u3', 'm4a2new'])
  })

  it('refuses a switch whose question is gone when no switch was under way, or when there is no question to put back', () => {
    const gone = session.slice(0, 2)
    expect(planSwitch({ attempt, messages: gone, now: 1, hasFilePlan: false, leaveFiles: false })).toEqual({ error: 'The retaken message is not in this session any more' })
    const { user: _u, ...noQuestion } = attempt
    expect(planSwitch({ attempt: { ...noQuestion, switching: true }, messages: gone, now: 1, hasFilePlan: false, leaveFiles: false })).toEqual({
      error: 'The retaken message is not in this session any more',
    })
  })
})

describe('replayEvents', () => {
  it('numbers one message event and one per part after the session’s last event, with new ids', () => {
    const ev = replayEvents('s', [msg('u2', 'user', 2), msg('a2', 'assistant', 1)], 41, 1000)
    expect(ev.map((e) => [e.seq, e.type])).toEqual([
      [42, 'message.updated.1'],
      [43, 'message.part.updated.1'],
      [44, 'message.part.updated.1'],
      [45, 'message.updated.1'],
      [46, 'message.part.updated.1'],
    ])
    expect(new Set(ev.map((e) => e.id)).size).toBe(5)
    expect(ev[1]!.data).toEqual({ sessionID: 's', part: { id: 'u2_p0' }, time: 1000 })
  })
})

describe('misplacedAfterReplay', () => {
  const at = (m: StoredMessage, created: number): StoredMessage => ({ ...m, info: { ...m.info, time: { created } } })
  const before = [at(msg('m1u1', 'user'), 1), at(msg('m2a1', 'assistant'), 2)]
  // The attempt's question (asked at 3) and its answer; the branch being left asked it again at 9.
  const replay = [at(msg('m3u2', 'user'), 3), at(msg('m4a2old', 'assistant'), 4)]
  const removed = ['m6a3', 'm5u3', 'm4a2new', 'm3u2']

  it('nothing when the session ends with the replayed messages, in order, as replayed', () => {
    expect(misplacedAfterReplay([...before, ...replay], replay, removed)).toEqual([])
    // Someone else's message after them is not the switch's business.
    expect(misplacedAfterReplay([...before, ...replay, at(msg('m9u9', 'user'), 20)], replay, removed)).toEqual([])
  })

  it('the question listed after its answers (brought back by a late write with its own time): everything of the switch goes again, newest first', () => {
    expect(misplacedAfterReplay([...before, replay[1]!, replay[0]!], replay, removed)).toEqual(['m3u2', 'm4a2old'])
  })

  it('a deleted message of the branch left that came back, or a replayed one rewritten since', () => {
    expect(misplacedAfterReplay([...before, ...replay, at(msg('m5u3', 'user'), 10)], replay, removed)).toEqual(['m5u3', 'm4a2old', 'm3u2'])
    expect(misplacedAfterReplay([...before, at(msg('m3u2', 'user'), 9), replay[1]!], replay, removed)).toEqual(['m4a2old', 'm3u2'])
  })

  it('a replayed message missing', () => {
    expect(misplacedAfterReplay([...before, replay[0]!], replay, removed)).toEqual(['m3u2'])
  })
})

describe('timesInOrder', () => {
  const at = (m: StoredMessage, created?: number): StoredMessage => ({ ...m, info: { ...m.info, ...(created === undefined ? {} : { time: { created } }) } })
  const created = (list: StoredMessage[]) => list.map((m) => m.info.time?.created)

  it('leaves times that already ascend (ties included: opencode orders those by id) and messages without one', () => {
    const list = [at(msg('u', 'user'), 3), at(msg('a1', 'assistant'), 4), at(msg('a2', 'assistant'), 4), at(msg('u2', 'user'))]
    expect(timesInOrder(list)).toEqual(list)
  })

  it('moves a question holding a later time (the other branch’s, written back by opencode’s summary) to just before its first answer, and nothing else', () => {
    const answer = { ...at(msg('a1', 'assistant'), 4), info: { ...at(msg('a1', 'assistant'), 4).info, time: { created: 4, completed: 6 } } }
    const list = [at(msg('u', 'user'), 9), answer, at(msg('u2', 'user'), 7)]
    const out = timesInOrder(list)
    expect(created(out)).toEqual([3, 4, 7])
    expect(out[1]).toBe(answer)
    // The stored attempt is not changed.
    expect(created(list)).toEqual([9, 4, 7])
  })

  it('is what a switch replays', () => {
    const late = { ...attempt, user: at(msg('m3u2', 'user'), 9), messages: [at(msg('m4a2old', 'assistant', 1, 'old'), 4)] }
    const p = planSwitch({ attempt: late, messages: session, now: 200, hasFilePlan: false, leaveFiles: false })
    expect('replay' in p && created(p.replay)).toEqual([3, 4])
  })
})
