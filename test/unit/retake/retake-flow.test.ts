import { describe, expect, it } from 'vitest'
import type { Part } from '@opencode-ai/sdk/v2'
import type { RetakeStep, SavedRetake } from '../../../shared/ipc-contract'
import { runRetake, runRewind, RetakeError, type RetakeDeps, type RetakeRequest } from '../../../core/retake/retake-flow'

const S = 'ses_test1'
const U = 'msg_user1'
const part = (id: string, extra: Record<string, unknown>) => ({ id, sessionID: S, messageID: U, ...extra }) as unknown as Part

const storedParts: Part[] = [
  part('prt_1', { type: 'text', text: 'please fix the bug' }),
  part('prt_2', { type: 'text', text: 'Called the Read tool', synthetic: true }),
  part('prt_3', { type: 'file', mime: 'image/png', filename: 'shot.png', url: 'data:image/png;base64,iVBORw0KGgo=' }),
]

function request(over: Partial<RetakeRequest> = {}): RetakeRequest {
  return {
    sessionID: S,
    messageID: U,
    directory: '/proj',
    message: { info: { id: U, role: 'user', agent: 'build' }, parts: storedParts },
    model: { providerID: 'fake', modelID: 'echo-2' },
    previousAnswers: [{ info: { id: 'msg_a1', role: 'assistant' }, parts: [] }],
    previousModel: { providerID: 'fake', modelID: 'echo' },
    ...over,
  }
}

/** A fake server + store that records calls and can fail one named step. */
function world(
  opts: {
    failAt?: RetakeStep | 'drop'
    busy?: boolean
    revertMarker?: string | null
    deleteAnswer?: unknown
    partsLeft?: number
    gone?: boolean
    parentID?: string
    turnError?: string
  } = {},
) {
  const calls: string[] = []
  const disk = new Map<string, SavedRetake>()
  let parts = storedParts.map((p) => ({ id: p.id }))
  const boom = (s: string) => {
    if (opts.failAt === s) throw new Error(`injected failure at ${s}`)
  }
  const deps: RetakeDeps = {
    async save(e) {
      calls.push(`save:${e.state}`)
      if (e.state === 'pending') boom('save')
      disk.set(e.messageID, structuredClone(e))
    },
    async drop(_s, m) {
      calls.push('drop')
      disk.delete(m)
    },
    async recordAttempt() {
      calls.push('attempt')
    },
    async forgetAttempt() {
      calls.push('forget-attempt')
    },
    async isBusy() {
      return opts.busy ?? false
    },
    async abortAndWaitIdle() {
      calls.push('abort')
      boom('abort')
    },
    async getMessage() {
      calls.push('get')
      boom('locate')
      if (opts.gone) return null
      // partsLeft simulates a server that said true but kept some parts.
      const second = calls.filter((c) => c === 'get').length > 1
      return { parts: second && opts.partsLeft ? storedParts.slice(0, opts.partsLeft).map((p) => ({ id: p.id })) : parts }
    },
    async revert(_s, m) {
      calls.push('revert')
      boom('revert')
      return { revert: opts.revertMarker === null ? undefined : { messageID: opts.revertMarker ?? m } }
    },
    async deletePart(_s, _m, p) {
      calls.push(`delete:${p}`)
      boom('delete-parts')
      parts = parts.filter((x) => x.id !== p)
      return opts.deleteAnswer ?? true
    },
    async prompt(body) {
      calls.push(`prompt:${body.messageID}:${body.model.modelID}`)
      boom('prompt')
      return {
        info: {
          id: 'msg_a2',
          role: 'assistant',
          parentID: opts.parentID ?? body.messageID,
          ...(opts.turnError ? { error: { name: 'APIError', data: { message: opts.turnError } } } : {}),
        },
        parts: [],
      }
    },
    now: () => 0,
  }
  return { deps, calls, disk }
}

const expectedParts = [
  { type: 'text', text: 'please fix the bug' },
  { type: 'file', mime: 'image/png', filename: 'shot.png', url: 'data:image/png;base64,iVBORw0KGgo=' },
]

describe('runRetake', () => {
  it('reverts, deletes each part, verifies, and prompts with the same message id and the model chosen now', async () => {
    const w = world()
    const out = await runRetake(request(), w.deps)
    expect(out).toMatchObject({ status: 'done', assistant: { parentID: U } })
    // The branch being replaced is kept before the revert (a crash after it must not lose it).
    expect(w.calls).toEqual(['save:pending', 'get', 'attempt', 'revert', 'delete:prt_1', 'delete:prt_2', 'delete:prt_3', 'get', `prompt:${U}:echo-2`, 'drop'])
    expect(w.disk.size).toBe(0)
  })

  it('aborts a busy session before reverting', async () => {
    const w = world({ busy: true })
    await runRetake(request(), w.deps)
    expect(w.calls.indexOf('abort')).toBeLessThan(w.calls.indexOf('revert'))
  })

  it.each<RetakeStep>(['abort', 'locate', 'revert', 'delete-parts', 'prompt'])('a failure at %s keeps the payload on disk, equal to the original, marked failed', async (step) => {
    const w = world({ failAt: step, busy: step === 'abort' })
    const err = await runRetake(request(), w.deps).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RetakeError)
    expect((err as RetakeError).step).toBe(step)
    const saved = w.disk.get(U)!
    expect(saved.parts).toEqual(expectedParts)
    expect(saved).toMatchObject({ state: 'failed', agent: 'build', model: { modelID: 'echo-2' }, error: expect.stringContaining(`${step}: injected failure`) })
    expect(w.calls).not.toContain('drop')
  })

  it('a failure to save stops before anything destructive runs', async () => {
    const w = world({ failAt: 'save' })
    await expect(runRetake(request(), w.deps)).rejects.toMatchObject({ step: 'save', saved: null })
    expect(w.calls).toEqual(['save:pending'])
  })

  it('an unknown id that the server "reverts" with 200 and no marker is caught', async () => {
    const w = world({ revertMarker: null })
    await expect(runRetake(request(), w.deps)).rejects.toMatchObject({ step: 'revert', message: expect.stringContaining('did not revert') })
    expect(w.calls.some((c) => c.startsWith('delete') || c.startsWith('prompt'))).toBe(false)
  })

  it('a part.delete answer other than true stops the retake before the prompt', async () => {
    const w = world({ deleteAnswer: false })
    await expect(runRetake(request(), w.deps)).rejects.toMatchObject({ step: 'delete-parts' })
    expect(w.calls.some((c) => c.startsWith('prompt'))).toBe(false)
  })

  it('parts still present after deletion are detected by the verifying read', async () => {
    const w = world({ partsLeft: 1 })
    await expect(runRetake(request(), w.deps)).rejects.toMatchObject({ step: 'verify' })
    expect(w.disk.get(U)?.parts).toEqual(expectedParts)
  })

  it('an answer to another message (queued prompt) is not taken as this retake’s', async () => {
    const w = world({ parentID: 'msg_other' })
    await expect(runRetake(request(), w.deps)).rejects.toMatchObject({ step: 'prompt' })
    expect(w.disk.get(U)?.state).toBe('failed')
  })

  it('a turn that fails at the provider is a completed retake with the error to show', async () => {
    const w = world({ turnError: 'Injected failure FAIL400' })
    const out = await runRetake(request(), w.deps)
    expect(out.turnError).toBe('Injected failure FAIL400')
    expect(w.disk.size).toBe(0)
  })

  it('"Send again" uses the saved payload, with the model chosen now, even when the message is gone', async () => {
    const saved: SavedRetake = {
      sessionID: S,
      messageID: U,
      directory: '/proj',
      parts: [{ type: 'text', text: 'kept safe' }],
      agent: 'plan',
      model: { providerID: 'fake', modelID: 'old' },
      savedAt: 1,
      state: 'failed',
      error: 'prompt: boom',
    }
    const w = world({ gone: true })
    await runRetake(request({ message: null, saved, model: { providerID: 'fake', modelID: 'echo' } }), w.deps)
    expect(w.calls).toEqual(['save:pending', 'get', `prompt:${U}:echo`, 'drop'])
  })

  it('an empty message cannot be retaken and nothing runs', async () => {
    const w = world()
    const err = await runRetake(request({ message: { info: { id: U, role: 'user' }, parts: [part('prt_s', { type: 'text', text: 'x', synthetic: true })] } }), w.deps).catch(
      (e: unknown) => e,
    )
    expect(err).toMatchObject({ step: 'payload', saved: null })
    expect(w.calls).toEqual([])
  })

  it('logs every step with its duration', async () => {
    const steps: RetakeStep[] = []
    const w = world()
    await runRetake(request(), { ...w.deps, onStep: (s) => steps.push(s) })
    expect(steps).toEqual(['payload', 'save', 'abort', 'locate', 'revert', 'delete-parts', 'verify', 'prompt'])
  })
})

describe('runRetake with files', () => {
  function filesWorld(opts: { restoreStatus?: 'done' | 'partial'; restoreThrows?: boolean; putBackFails?: boolean } = {}) {
    const w = world()
    const calls = w.calls
    const deps: RetakeDeps = {
      ...w.deps,
      async holdKept(planId, overwrite) {
        calls.push(`hold:${planId}:${overwrite.join(',')}`)
        return 'h1'
      },
      async restoreFiles(planId) {
        calls.push(`restore:${planId}`)
        if (opts.restoreThrows) throw new Error('EACCES: permission denied')
        const status = opts.restoreStatus ?? 'done'
        return { restoreId: 'r1', status, applied: [{ path: 'a.txt' }], failed: status === 'partial' ? [{ path: 'locked.txt', error: 'EACCES' }] : [], skipped: [] }
      },
      async putBackKept(holdId) {
        calls.push(`putback:${holdId}`)
        return { failed: opts.putBackFails ? [{ path: 'mine.txt', error: 'EIO' }] : [] }
      },
      async undoFiles(restoreId) {
        calls.push(`undo:${restoreId}`)
      },
    }
    return { ...w, deps }
  }
  const files = { planId: 'p1', overwrite: ['root:a.txt'] }

  it('holds kept files, restores the files, reverts, puts kept files back, then prompts', async () => {
    const w = filesWorld()
    const out = await runRetake(request({ files }), w.deps)
    expect(w.calls).toEqual([
      'save:pending',
      'get',
      'attempt',
      'hold:p1:root:a.txt',
      'restore:p1',
      'revert',
      'putback:h1',
      'delete:prt_1',
      'delete:prt_2',
      'delete:prt_3',
      'get',
      `prompt:${U}:echo-2`,
      'drop',
    ])
    expect(out.restore).toMatchObject({ restoreId: 'r1', status: 'done' })
  })

  it.each([
    ['a partial restore', { restoreStatus: 'partial' as const }, /could not all be restored.*locked\.txt/, true],
    ['a restore that throws', { restoreThrows: true }, /EACCES/, false],
  ])('%s leaves the conversation alone: no revert, no part deleted, no prompt, payload kept', async (_name, o, msg, undone) => {
    const w = filesWorld(o)
    const err = await runRetake(request({ files }), w.deps).catch((e: unknown) => e)
    expect(err).toMatchObject({ step: 'files', message: expect.stringMatching(msg) })
    expect(w.calls.includes('undo:r1')).toBe(undone)
    expect(w.calls).toContain('putback:h1')
    expect(w.calls.some((c) => c === 'revert' || c.startsWith('delete') || c.startsWith('prompt'))).toBe(false)
    // The attempt recorded before the files is taken back: the conversation never changed.
    expect(w.calls.filter((c) => c.endsWith('attempt'))).toEqual(['attempt', 'forget-attempt'])
    expect(w.disk.get(U)).toMatchObject({ state: 'failed', parts: expectedParts })
  })

  it('a revert that fails after the files were restored undoes the file restore', async () => {
    const w = filesWorld()
    const failing: RetakeDeps = {
      ...w.deps,
      revert: async () => {
        w.calls.push('revert')
        throw new Error('409 busy')
      },
    }
    const err = await runRetake(request({ files }), failing).catch((e: unknown) => e)
    expect(err).toMatchObject({ step: 'revert' })
    // The restore undone first, the user's kept files put back last (their versions are what remains).
    expect(w.calls.slice(-5)).toEqual(['revert', 'undo:r1', 'putback:h1', 'save:failed', 'forget-attempt'])
    expect(w.calls.some((c) => c.startsWith('delete') || c.startsWith('prompt'))).toBe(false)
  })

  it('kept files that cannot be put back after the revert stop the retake and undo the restore', async () => {
    const w = filesWorld({ putBackFails: true })
    const err = await runRetake(request({ files }), w.deps).catch((e: unknown) => e)
    expect(err).toMatchObject({ step: 'revert', message: expect.stringMatching(/kept files could not be put back: mine\.txt/) })
    expect(w.calls).toContain('undo:r1')
    expect(w.calls.some((c) => c.startsWith('prompt'))).toBe(false)
  })
})

describe('runRetake without a checkpoint', () => {
  it('passes the user’s choice to send without a checkpoint on to the prompt, and only then', async () => {
    const seen: unknown[] = []
    const w = world()
    const deps: RetakeDeps = { ...w.deps, prompt: async (body, opts) => (seen.push(opts), w.deps.prompt(body)) }
    await runRetake(request({ skipCheckpoint: true }), deps)
    await runRetake(request(), deps)
    expect(seen).toEqual([{ skipCheckpoint: true }, undefined])
  })
})

describe('runRetake refused for want of a checkpoint', () => {
  it('marks the saved payload so the user can be offered to send without one', async () => {
    const w = world()
    const refused = Object.assign(new Error('session.prompt: HTTP 409: could not record a checkpoint'), { status: 409, body: { name: 'CheckpointFailed' } })
    const deps: RetakeDeps = { ...w.deps, prompt: async () => Promise.reject(refused) }
    await expect(runRetake(request(), deps)).rejects.toMatchObject({ step: 'prompt' })
    expect(w.disk.get(U)).toMatchObject({ state: 'failed', noCheckpoint: true, parts: expectedParts })
    const other = world({ failAt: 'prompt' })
    await runRetake(request(), other.deps).catch(() => {})
    expect(other.disk.get(U)?.noCheckpoint).toBeUndefined()
  })
})

describe('runRewind (/rewind): ↺ up to the revert, then nothing is sent', () => {
  it('saves the payload, reverts, and gives the turn back without deleting its parts or prompting; no attempt is kept', async () => {
    const w = world()
    const out = await runRewind(request({ previousAnswers: [] }), w.deps)
    expect(out).toEqual({ status: 'rewound', parts: expectedParts })
    expect(w.calls).toEqual(['save:pending', 'get', 'revert', 'drop'])
    expect(w.disk.size).toBe(0)
  })

  it('restores the files as chosen, kept files put back after the revert, then stops', async () => {
    const w = world()
    const deps: RetakeDeps = {
      ...w.deps,
      holdKept: async () => (w.calls.push('hold'), 'h1'),
      restoreFiles: async () => (w.calls.push('restore'), { restoreId: 'r1', status: 'done', applied: [{ path: 'a.txt' }], failed: [], skipped: [] }),
      putBackKept: async () => (w.calls.push('putback'), { failed: [] }),
      undoFiles: async () => w.calls.push('undo'),
    }
    const out = await runRewind(request({ previousAnswers: [], files: { planId: 'p1', overwrite: [] } }), deps)
    expect(w.calls).toEqual(['save:pending', 'get', 'hold', 'restore', 'revert', 'putback', 'drop'])
    expect(out).toMatchObject({ status: 'rewound', restore: { restoreId: 'r1' } })
  })

  it('a revert that fails leaves the payload saved (the text is not lost) and nothing sent', async () => {
    const w = world({ failAt: 'revert' })
    await expect(runRewind(request({ previousAnswers: [] }), w.deps)).rejects.toMatchObject({ step: 'revert' })
    expect(w.calls.some((c) => c.startsWith('prompt') || c.startsWith('delete'))).toBe(false)
    expect(w.disk.get(U)).toMatchObject({ state: 'failed', parts: expectedParts })
  })

  it('a message the server no longer has is not gone back before', async () => {
    const w = world({ gone: true })
    await expect(runRewind(request({ previousAnswers: [] }), w.deps)).rejects.toMatchObject({ message: expect.stringContaining('no longer on the server') })
    expect(w.calls).not.toContain('revert')
  })
})
