import { describe, expect, it } from 'vitest'
import { compareColumns } from '../../../src/features/retake/compare-columns'
import type { Attempt } from '../../../shared/ipc-contract'
import { SID, assistant, user } from './fixtures'

const m1 = { providerID: 'p', modelID: 'one' }
const m2 = { providerID: 'p', modelID: 'two' }
const m3 = { providerID: 'p', modelID: 'three' }
const done = (keptAt?: number) => ({ status: 'done' as const, messageID: 'msg_u', restore: null, ...(keptAt ? { keptAt } : {}) })
const kept = (at: number, answer: string): Attempt => ({ sessionID: SID, messageID: 'msg_u', at, messages: [assistant(answer, 'msg_u')], restoreId: `rst_${at}` })
const timeline = [user('msg_u'), assistant('msg_now', 'msg_u')]
const from = (attempts: Attempt[]) => ({
  attempts,
  messages: timeline,
  checkpoints: [{ messageID: 'msg_u', status: 'sealed' as const, createdAt: 1, changes: [] }],
  labelOf: (m: { modelID: string }) => m.modelID,
})

describe('compareColumns', () => {
  it('gives each run the attempt the next run kept, and the last run the current branch', () => {
    const cols = compareColumns(
      {
        messageID: 'msg_u',
        runs: [
          { model: m1, outcome: done(10) },
          { model: m2, outcome: done(20) },
          { model: m3, outcome: done(30) },
        ],
      },
      from([kept(10, 'msg_orig'), kept(20, 'msg_one'), kept(30, 'msg_two')]),
    )
    expect(cols.map((c) => [c.modelLabel, c.answers.map((a) => a.info.id), c.attempt?.at])).toEqual([
      ['one', ['msg_one'], 20],
      ['two', ['msg_two'], 30],
      ['three', ['msg_now'], undefined],
    ])
  })

  it('a run that did not start shows its error, and the run before it is the current one', () => {
    const cols = compareColumns(
      {
        messageID: 'msg_u',
        runs: [
          { model: m1, outcome: done(10) },
          { model: m2, outcome: { status: 'failed', step: 'prompt', error: 'no key', saved: true } },
        ],
      },
      from([kept(10, 'msg_orig')]),
    )
    expect(cols[0]).toMatchObject({ modelLabel: 'one', answers: [{ info: { id: 'msg_now' } }] })
    expect(cols[0]!.attempt).toBeUndefined()
    expect(cols[1]).toMatchObject({ modelLabel: 'two', failed: 'no key' })
  })
})
