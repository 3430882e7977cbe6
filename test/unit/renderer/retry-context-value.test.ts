import { describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { retryContextOf } from '../../../src/features/retake/retry-context-value'
import type { ModelRef, RetakeOutcome } from '../../../shared/ipc-contract'
import { assistant, SID, user } from './fixtures'

const echo = { providerID: 'local', modelID: 'echo' }
const echo2 = { providerID: 'local', modelID: 'echo-2' }

function contextWith(model: ModelRef | undefined) {
  const chooseModel = vi.fn()
  const retake = vi.fn(async () => ({ status: 'done' }) as RetakeOutcome)
  const ctx = retryContextOf(
    {
      sessionID: SID,
      messagesRef: { current: [user('msg_u1', 'first'), assistant('msg_a1', 'msg_u1')] },
      model,
      busy: false,
      locked: false,
      options: [],
      checkpoints: [],
      chooseModel,
      onEdit: vi.fn(),
    },
    { retake, compareModels: vi.fn(), qc: new QueryClient() },
    { setStartError: vi.fn(), setSheet: vi.fn(), setComparison: vi.fn(), noteRestore: vi.fn() },
  )
  return { ctx, chooseModel, retake }
}

describe('the retry context: a retake that runs decides the session’s model', () => {
  it('a retake with another model makes it the session’s, before it runs', async () => {
    const { ctx, chooseModel, retake } = contextWith(echo)
    await ctx.retake('msg_a1', echo2)
    expect(chooseModel).toHaveBeenCalledWith(echo2)
    expect(chooseModel.mock.invocationCallOrder[0]).toBeLessThan(retake.mock.invocationCallOrder[0]!)
    expect(retake).toHaveBeenCalledWith(expect.objectContaining({ clickedID: 'msg_a1', model: echo2 }))
  })

  it('a retake with the model in use leaves the choice as it is', async () => {
    const { ctx, chooseModel } = contextWith(echo)
    await ctx.retake('msg_a1', { ...echo })
    expect(chooseModel).not.toHaveBeenCalled()
  })
})
