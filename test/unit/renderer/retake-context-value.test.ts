import { describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { retakeContextOf } from '../../../src/features/retake/retake-context-value'
import type { ModelRef, RetakeOutcome } from '../../../shared/ipc-contract'
import { assistant, SID, user } from './fixtures'

const echo = { providerID: 'local', modelID: 'echo' }
const echo2 = { providerID: 'local', modelID: 'echo-2' }

function contextWith(model: ModelRef | undefined, outcome: RetakeOutcome = { status: 'done' } as RetakeOutcome) {
  const chooseModel = vi.fn()
  const onEdit = vi.fn()
  const reports = { setStartError: vi.fn(), setSheet: vi.fn(), setComparison: vi.fn(), noteRestore: vi.fn() }
  const retake = vi.fn(async () => outcome)
  const ctx = retakeContextOf(
    {
      sessionID: SID,
      messagesRef: { current: [user('msg_u1', 'first'), assistant('msg_a1', 'msg_u1')] },
      model,
      busy: false,
      locked: false,
      options: [],
      checkpoints: [],
      chooseModel,
      onEdit,
    },
    { retake, compareModels: vi.fn(), qc: new QueryClient() },
    reports,
  )
  return { ctx, chooseModel, retake, onEdit, reports }
}

describe('the retake context: a retake that runs decides the session’s model', () => {
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

describe('the retake context: /rewind', () => {
  const restore = {
    restoreId: 'rst_1',
    status: 'done',
    applied: [{ root: '/p', path: 'notes.txt', kind: 'delete' }],
    skipped: [],
    failed: [],
    turnsMarkedRestored: true,
    warnings: [],
  }
  const draft = [
    { type: 'text' as const, text: 'write the notes' },
    { type: 'file' as const, mime: 'text/plain', filename: 'brief.txt', url: 'data:text/plain;base64,aGk=' },
  ]

  it('opens the sheet that goes back (not the retake sheet) for the user turn of the message', () => {
    const { ctx, reports } = contextWith(echo)
    ctx.openRewindSheet('msg_a1', echo)
    expect(reports.setSheet).toHaveBeenCalledWith({ clickedID: 'msg_a1', target: 'msg_u1', model: echo, rewind: true })
  })

  it('goes back without changing the session’s model, then puts the text and the attachment in the composer', async () => {
    const { ctx, chooseModel, retake, onEdit, reports } = contextWith(echo, { status: 'done', messageID: 'msg_u1', restore, draft } as RetakeOutcome)
    await ctx.rewind('msg_u1', echo2)
    expect(retake).toHaveBeenCalledWith(expect.objectContaining({ clickedID: 'msg_u1', rewind: true }))
    expect(chooseModel).not.toHaveBeenCalled()
    expect(reports.noteRestore).toHaveBeenCalledWith(restore)
    expect(onEdit).toHaveBeenCalledWith('write the notes', [expect.objectContaining({ name: 'brief.txt', kind: 'text' })])
  })

  it('a rewind that failed puts nothing in the composer; one that never started says why', async () => {
    const failed = contextWith(echo, { status: 'failed', step: 'revert', error: 'the server said no', saved: false })
    await failed.ctx.rewind('msg_u1', echo)
    expect(failed.onEdit).not.toHaveBeenCalled()
    expect(failed.reports.setStartError).toHaveBeenLastCalledWith('the server said no')
  })
})
