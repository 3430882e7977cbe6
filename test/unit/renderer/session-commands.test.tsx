import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderHook } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ScopeProvider } from '../../../src/api/scope'
import { setBridge } from '../../../src/bridge'
import { checkpointKeys } from '../../../src/api/query-keys'
import type { RetakeBridge } from '../../../shared/ipc-contract'
import { useSessionCommands } from '../../../src/features/chat/use-session-commands'
import type { RetakeContextValue } from '../../../src/features/retake/retake-context'
import type { ModelOption } from '../../../src/features/models/model-choice'
import { assistant, SID, user } from './fixtures'

const echo = { providerID: 'fake', modelID: 'echo' }
const echo2 = { providerID: 'fake', modelID: 'echo-2' }
const options: ModelOption[] = [
  { ref: echo, key: 'fake/echo', providerName: 'Fake', modelName: 'Echo' },
  { ref: echo2, key: 'fake/echo-2', providerName: 'Fake', modelName: 'Echo 2' },
]
const messages = [user('msg_1', 'one'), assistant('msg_2', 'msg_1'), user('msg_3', 'two'), assistant('msg_4', 'msg_3')]

function ctxWith(changed: (id: string) => boolean): RetakeContextValue {
  return {
    sessionID: SID,
    getMessages: () => messages,
    model: echo,
    modelLabel: 'Echo',
    options,
    busy: false,
    locked: false,
    chooseModel: vi.fn(),
    retake: vi.fn(async () => {}),
    compare: vi.fn(async () => {}),
    changedFiles: changed,
    openRestoreSheet: vi.fn(),
    openRewindSheet: vi.fn(),
    rewind: vi.fn(async () => {}),
    editSaved: vi.fn(),
    discardSaved: vi.fn(),
  }
}

function run(ctx: RetakeContextValue, qc = new QueryClient()) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>{children}</ScopeProvider>
    </QueryClientProvider>
  )
  const { result } = renderHook(() => useSessionCommands({ sessionID: SID, messages, options, retake: { current: ctx } }), { wrapper })
  return result.current
}

afterEach(() => setBridge(null))

describe('what /retake and /rewind do (the ↺ path)', () => {
  it('/retake of a turn that changed files opens the restore sheet, as ↺ does', async () => {
    const ctx = ctxWith((id) => id === 'msg_3')
    expect(await run(ctx)({ kind: 'command', name: 'retake', arg: '' })).toEqual({ ok: true })
    expect(ctx.openRestoreSheet).toHaveBeenCalledWith('msg_3', echo)
    expect(ctx.retake).not.toHaveBeenCalled()
  })

  it('/retake of a turn that changed nothing retakes at once, with the model named (the retake makes it the session’s)', async () => {
    const ctx = ctxWith(() => false)
    await run(ctx)({ kind: 'command', name: 'retake', arg: 'echo-2' })
    expect(ctx.retake).toHaveBeenCalledWith('msg_3', echo2)
    expect(ctx.openRestoreSheet).not.toHaveBeenCalled()
  })

  it('/retake with a model on a turn that changed files asks first, and leaves the session’s model until the sheet is confirmed', async () => {
    const ctx = ctxWith((id) => id === 'msg_3')
    await run(ctx)({ kind: 'command', name: 'retake', arg: 'echo-2' })
    expect(ctx.openRestoreSheet).toHaveBeenCalledWith('msg_3', echo2)
    expect(ctx.chooseModel).not.toHaveBeenCalled()
  })

  it('/retake with a model nobody has says so and keeps the draft', async () => {
    const ctx = ctxWith(() => false)
    const out = await run(ctx)({ kind: 'command', name: 'retake', arg: 'gpt-9' })
    expect(out).toMatchObject({ ok: false, draft: '/retake gpt-9' })
    expect(out.message).toContain('gpt-9')
    expect(ctx.retake).not.toHaveBeenCalled()
  })

  it('/rewind N opens the sheet that goes back before turn N (not the retake sheet); a bad N or none asks for one', async () => {
    const ctx = ctxWith(() => false)
    const go = run(ctx)
    expect(await go({ kind: 'command', name: 'rewind', arg: '1' })).toEqual({ ok: true })
    expect(ctx.openRewindSheet).toHaveBeenCalledWith('msg_1', echo)
    expect(ctx.openRestoreSheet).not.toHaveBeenCalled()
    expect(await go({ kind: 'command', name: 'rewind', arg: '3' })).toMatchObject({ ok: false, message: 'There is no turn 3: choose 1–2.' })
    expect(await go({ kind: 'command', name: 'rewind', arg: '' })).toMatchObject({ ok: false, draft: '/rewind ' })
    expect(ctx.retake).not.toHaveBeenCalled()
    expect(ctx.rewind).not.toHaveBeenCalled()
  })

  it('nothing runs while a retake of the session is under way', async () => {
    const ctx = { ...ctxWith(() => false), locked: true }
    expect(await run(ctx)({ kind: 'command', name: 'retake', arg: '' })).toMatchObject({ ok: false })
    expect(ctx.retake).not.toHaveBeenCalled()
  })
})

describe('/undo', () => {
  function host(last: { restoreId: string; rolledBack: boolean } | null) {
    const calls: Array<[string, unknown]> = []
    setBridge({
      async invoke(channel: string, input: unknown) {
        calls.push([channel, input])
        if (channel === 'checkpoints.lastRestore') return last && { ...last, messageID: 'msg_3', at: 1 }
        if (channel === 'checkpoints.undo')
          return { restoreId: 'rst_2', status: 'done', applied: [{ root: '/p', path: 'a', kind: 'restore' }], skipped: [], failed: [], turnsMarkedRestored: false, warnings: [] }
        throw new Error(`unexpected ${channel}`)
      },
      on: () => () => {},
    } as unknown as RetakeBridge)
    return calls
  }

  it('undoes the session’s last restore, from the host’s record', async () => {
    const calls = host({ restoreId: 'rst_1', rolledBack: true })
    const out = await run(ctxWith(() => false))({ kind: 'command', name: 'undo', arg: '' })
    expect(out).toEqual({ ok: true, message: 'Restore undone: 1 file back as it was before the restore.' })
    expect(calls).toEqual([
      ['checkpoints.lastRestore', { directory: '/p', sessionID: SID }],
      ['checkpoints.undo', { directory: '/p', restoreId: 'rst_1' }],
    ])
  })

  it('reads and refreshes the one last-restore query the Undo bar and the Checkpoints panel show', async () => {
    host({ restoreId: 'rst_1', rolledBack: true })
    const qc = new QueryClient()
    await run(
      ctxWith(() => false),
      qc,
    )({ kind: 'command', name: 'undo', arg: '' })
    const state = qc.getQueryState(checkpointKeys.lastRestore('/p', SID))
    expect(state?.data).toMatchObject({ restoreId: 'rst_1' })
    // After the undo the record is stale: whoever shows it reads the new top (the redo) next.
    expect(state?.isInvalidated).toBe(true)
  })

  it('says when there is nothing to undo', async () => {
    const calls = host(null)
    expect(await run(ctxWith(() => false))({ kind: 'command', name: 'undo', arg: '' })).toMatchObject({ ok: false, message: 'No file restore to undo in this conversation.' })
    expect(calls.map((c) => c[0])).toEqual(['checkpoints.lastRestore'])
  })
})
