import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { queryKeys } from '../../../src/api/query-keys'
import { setBridge } from '../../../src/bridge'
import { CheckpointsPanel } from '../../../src/features/checkpoints/CheckpointsPanel'
import {
  canConfirmRestore,
  confirmRestoreLabel,
  filesOnlyIntro,
  groupPlan,
  overwriteIds,
  parseCleanup,
  restoreModes,
  resultHeadline,
  summarizeChanges,
  turnLabel,
  turnsWithFileChanges,
  undoableRestoreId,
} from '../../../src/features/checkpoints/checkpoint-logic'
import type { RestorePlan, RestoreResult, RetakeBridge, TurnCheckpoint } from '../../../shared/ipc-contract'
import { SID, user } from './fixtures'

const DIR = '/p'
const scope = { connection: 'c', directory: DIR }

const turns: TurnCheckpoint[] = [
  {
    messageID: 'msg_one',
    status: 'sealed',
    createdAt: 1_000,
    sealedAt: 2_000,
    changes: [
      { root: DIR, path: 'one.txt', change: 'added', binary: false, added: 1, removed: 0 },
      { root: DIR, path: 'img.png', change: 'modified', binary: true, added: 0, removed: 0 },
    ],
  },
  {
    messageID: 'msg_two',
    status: 'sealed',
    createdAt: 3_000,
    sealedAt: 4_000,
    changes: [{ root: '/extra', path: 'two.txt', change: 'modified', binary: false, added: 2, removed: 1 }],
  },
]

const plan: RestorePlan = {
  planId: 'plan_1',
  turns: [
    { sessionID: SID, messageID: 'msg_one' },
    { sessionID: SID, messageID: 'msg_two' },
  ],
  warnings: [],
  actions: [
    { id: 'r:one.txt', root: DIR, path: 'one.txt', kind: 'delete' },
    { id: 'x:two.txt', root: '/extra', path: 'two.txt', kind: 'conflict', reason: 'edited since the turn' },
    { id: 'r:img.png', root: DIR, path: 'img.png', kind: 'conflict', reason: 'edited since the turn' },
  ],
}

const applied: RestoreResult = {
  restoreId: 'rst_1',
  status: 'done',
  applied: [
    { root: DIR, path: 'one.txt', kind: 'delete' },
    { root: '/extra', path: 'two.txt', kind: 'restore' },
  ],
  skipped: [{ root: DIR, path: 'img.png', reason: 'edited since the turn' }],
  failed: [],
  turnsMarkedRestored: false,
  warnings: [],
}

function fakeHost(overrides: Record<string, unknown> = {}) {
  const calls: { channel: string; input: Record<string, unknown> }[] = []
  // The host's restore records, as the engine keeps them: the latest that can be undone.
  let last: { restoreId: string; messageID: string; at: number; rolledBack: boolean } | null = null
  const bridge = {
    async invoke(channel: string, input: Record<string, unknown>) {
      calls.push({ channel, input })
      if (channel in overrides) return overrides[channel]
      switch (channel) {
        case 'checkpoints.list':
          return turns
        case 'checkpoints.plan':
          return plan
        case 'checkpoints.apply':
          last = { restoreId: 'rst_1', messageID: 'msg_one', at: 1, rolledBack: true }
          return applied
        case 'checkpoints.lastRestore':
          return last
        case 'checkpoints.undo':
          last = { restoreId: 'rst_2', messageID: 'msg_one', at: 2, rolledBack: false }
          return { ...applied, restoreId: 'rst_2', skipped: [], applied: [{ root: DIR, path: 'one.txt', kind: 'recreate' }] }
        case 'checkpoints.stats':
          return { turns: 2, sessions: 1, snapshots: 3, blobs: 4, blobBytes: 2048, storeBytes: 8192 }
        case 'checkpoints.cleanup':
          return { turnsDropped: 1, bytesFreed: 1536 }
        case 'checkpoints.verify':
          return input.repair
            ? {
                ok: false,
                blobsChecked: 3,
                missing: [{ root: DIR, path: 'gone.bin' }],
                damaged: [],
                brokenTurns: [],
                unreachableBlobs: 0,
                unreachableBytes: 0,
                repaired: { blobsSwept: 1, bytesFreed: 100, damagedMovedAside: 1 },
              }
            : {
                ok: false,
                blobsChecked: 3,
                missing: [{ root: DIR, path: 'gone.bin' }],
                damaged: [{ root: DIR, path: 'bad\udcff.bin' }],
                brokenTurns: [],
                unreachableBlobs: 1,
                unreachableBytes: 100,
                repaired: null,
              }
        default:
          throw new Error(`unexpected ${channel}`)
      }
    },
    on: () => () => {},
  }
  setBridge(bridge as unknown as RetakeBridge)
  return calls
}

function renderPanel() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  // The messages cache as the event stream would have filled it: only the first turn's text is known.
  qc.setQueryData(queryKeys.messages(scope, SID), [user('msg_one', 'WRITE one.txt first')])
  render(
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={scope}>
        <CheckpointsPanel sessionID={SID} busy={false} onClose={() => {}} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
}

afterEach(() => {
  setBridge(null)
  vi.unstubAllGlobals()
})

/** opencode's one-message read: the questions older than the chat's loaded window (`known`), 404 for the rest. */
function fakeOpencode(known: Record<string, string>) {
  const asked: string[] = []
  vi.stubGlobal('fetch', async (input: Request) => {
    const p = new URL(input.url).pathname.replace(/^\/opencode/, '')
    asked.push(p)
    const id = /^\/session\/[^/]+\/message\/([^/]+)$/.exec(p)?.[1]
    const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { 'content-type': 'application/json' } })
    return id && known[id] ? json(user(id, known[id])) : json({ name: 'NotFoundError', data: { message: 'not found' } }, 404)
  })
  return asked
}

describe('CheckpointsPanel', () => {
  it('names a turn older than the loaded messages by its question, fetched on its own, not by a time', async () => {
    fakeHost()
    const asked = fakeOpencode({ msg_two: 'WRITE two.txt second' })
    renderPanel()
    expect(await screen.findByRole('button', { name: 'WRITE two.txt second' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'WRITE one.txt first' })).toBeInTheDocument()
    expect(screen.getByTestId('checkpoints-panel')).not.toHaveTextContent(/Turn at/)
    // Only the question the window lacks is asked for.
    expect(asked).toEqual([`/session/${SID}/message/msg_two`])
  })

  it('lists the turns newest first with their text (or time), a summary and a row per file on expand', async () => {
    fakeHost()
    fakeOpencode({})
    renderPanel()
    const rows = await screen.findAllByTestId('checkpoint-turn')
    expect(rows.map((r) => r.dataset.messageId)).toEqual(['msg_two', 'msg_one'])
    expect(rows[1]).toHaveTextContent('WRITE one.txt first')
    // A question gone from the server (reverted by a retake): its time.
    await waitFor(() => expect(rows[0]).toHaveTextContent(/Turn at/))
    expect(within(rows[1]).getByTestId('turn-summary')).toHaveTextContent('1 added · 1 modified +1 −0 · 1 binary')
    expect(screen.getByTestId('checkpoints-panel')).toHaveTextContent(/conversation is not touched/)
    await userEvent.click(within(rows[1]).getByTestId('turn-toggle'))
    const files = within(rows[1]).getAllByTestId('turn-file')
    expect(files.map((f) => f.dataset.change)).toEqual(['added', 'modified'])
    expect(files[1]).toHaveTextContent('binary')
    // A file in an extra folder is shown with its folder.
    await userEvent.click(within(rows[0]).getByTestId('turn-toggle'))
    expect(within(rows[0]).getByTestId('turn-file')).toHaveTextContent('/extra/two.txt')
  })

  it('restores back to a turn: plan, conflicts kept by default, one taken, result, then undo', async () => {
    const calls = fakeHost()
    renderPanel()
    const rows = await screen.findAllByTestId('checkpoint-turn')
    await userEvent.click(within(rows[1]).getByTestId('restore-back'))
    const sheet = await screen.findByTestId('restore-sheet')
    // The restore sheet of ↺, files only: no choice of what to roll back, the conversation stays.
    expect(within(sheet).getByRole('heading', { name: 'Restore back to “WRITE one.txt first”' })).toBeInTheDocument()
    expect(within(sheet).queryByRole('radio')).toBeNull()
    expect(await within(sheet).findByTestId('restore-remove')).toHaveTextContent('one.txt')
    expect(calls.find((c) => c.channel === 'checkpoints.plan')!.input.target).toEqual({ backTo: { sessionID: SID, messageID: 'msg_one' } })
    expect(sheet).toHaveTextContent('Undoes what these 2 turns did on disk. The conversation is not changed.')
    const conflicts = within(within(sheet).getByTestId('restore-conflicts')).getAllByTestId('conflict-choice')
    expect(conflicts).toHaveLength(2)
    conflicts.forEach((c) => expect(c).toHaveValue('keep'))
    await userEvent.selectOptions(conflicts[0]!, 'take')
    await userEvent.click(within(sheet).getByTestId('restore-confirm'))

    const result = await screen.findByTestId('restore-result')
    expect(calls.find((c) => c.channel === 'checkpoints.apply')!.input).toMatchObject({ planId: 'plan_1', onConflict: 'restore-rest', overwrite: ['x:two.txt'], keep: [] })
    expect(result).toHaveTextContent('Restore done: 1 file removed, 1 file restored, 1 file kept as they are.')
    expect(within(result).getByTestId('result-skipped')).toHaveTextContent('img.png')
    await userEvent.click(await screen.findByTestId('undo-restore'))
    await waitFor(() => expect(screen.getByTestId('restore-result')).toHaveTextContent('Undo done: 1 file brought back.'))
    expect(calls.find((c) => c.channel === 'checkpoints.undo')!.input).toEqual({ directory: DIR, restoreId: 'rst_1' })
    // The host's chain now offers the redo (the undo itself can be undone).
    expect(await screen.findByTestId('redo-restore')).toHaveTextContent('Redo restore')
    expect(screen.queryByTestId('undo-restore')).toBeNull()
  })

  it('shows storage and cleans up with the limits typed; a bad limit is refused before the host', async () => {
    const calls = fakeHost()
    renderPanel()
    expect(await screen.findByTestId('storage-stats')).toHaveTextContent('2.0 KB of file contents for 2 turns in 1 session')
    await userEvent.clear(screen.getByTestId('cleanup-age'))
    await userEvent.type(screen.getByTestId('cleanup-age'), '0')
    await userEvent.click(screen.getByTestId('run-cleanup'))
    expect(await screen.findByText(/Max age must be a positive number/)).toBeInTheDocument()
    expect(calls.some((c) => c.channel === 'checkpoints.cleanup')).toBe(false)
    await userEvent.clear(screen.getByTestId('cleanup-age'))
    await userEvent.type(screen.getByTestId('cleanup-age'), '7')
    await userEvent.type(screen.getByTestId('cleanup-turns'), '20')
    await userEvent.click(screen.getByTestId('run-cleanup'))
    expect(await screen.findByTestId('cleanup-result')).toHaveTextContent('1 turn dropped, 1.5 KB freed')
    expect(calls.find((c) => c.channel === 'checkpoints.cleanup')!.input).toEqual({ directory: DIR, maxAgeDays: 7, maxTurnsPerSession: 20 })
  })

  it('checks the checkpoints on demand, names the files that can no longer come back, and repairs on a second click', async () => {
    const calls = fakeHost()
    renderPanel()
    await userEvent.click(await screen.findByTestId('run-verify'))
    const result = await screen.findByTestId('verify-result')
    expect(result).toHaveAttribute('data-ok', 'false')
    expect(result).toHaveTextContent('2 files can no longer be restored')
    expect(screen.getAllByTestId('verify-problem').map((li) => li.textContent)).toEqual(['bad\\xff.bin damaged', 'gone.bin missing'])
    await userEvent.click(screen.getByTestId('run-repair'))
    expect(await screen.findByTestId('verify-repaired')).toHaveTextContent('1 damaged moved aside, 1 unused dropped')
    expect(calls.filter((c) => c.channel === 'checkpoints.verify').map((c) => c.input)).toEqual([
      { directory: DIR, repair: false },
      { directory: DIR, repair: true },
    ])
  })

  it('says when there is nothing to restore and offers no confirm then', async () => {
    fakeHost({ 'checkpoints.plan': { ...plan, actions: [{ id: 'n', root: DIR, path: 'one.txt', kind: 'nothing' }] } })
    renderPanel()
    await userEvent.click((await screen.findAllByTestId('restore-back'))[0])
    expect(await screen.findByTestId('restore-empty')).toHaveTextContent('Nothing to restore')
    expect(screen.getByTestId('restore-confirm')).toBeDisabled()
    await userEvent.click(screen.getByTestId('restore-cancel'))
    expect(await screen.findAllByTestId('checkpoint-turn')).toHaveLength(2)
  })

  it('shows a partial restore with its failures', async () => {
    const failed: RestoreResult = {
      ...applied,
      status: 'partial',
      applied: [],
      skipped: [],
      failed: [{ root: DIR, path: 'locked.bin', error: 'EACCES: permission denied' }],
    }
    fakeHost({ 'checkpoints.plan': { ...plan, actions: [plan.actions[0]] }, 'checkpoints.apply': failed })
    renderPanel()
    await userEvent.click((await screen.findAllByTestId('restore-back'))[0])
    await screen.findByTestId('restore-remove')
    await userEvent.click(screen.getByTestId('restore-confirm'))
    const result = await screen.findByTestId('restore-result')
    expect(result).toHaveAttribute('data-status', 'partial')
    expect(within(result).getByTestId('result-failed')).toHaveTextContent(/locked\.bin\s*failed: EACCES: permission denied/)
    expect(result).toHaveTextContent('Fix the cause')
    expect(screen.queryByTestId('undo-restore')).toBeNull()
  })

  it('keeps Restore disabled while a turn runs', async () => {
    fakeHost()
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={qc}>
        <ScopeProvider scope={scope}>
          <CheckpointsPanel sessionID={SID} busy={true} onClose={() => {}} />
        </ScopeProvider>
      </QueryClientProvider>,
    )
    const buttons = await screen.findAllByTestId('restore-back')
    buttons.forEach((b) => expect(b).toBeDisabled())
    expect(screen.getByText(/A turn is running/)).toBeInTheDocument()
  })
})

describe('checkpoint logic', () => {
  it('a retake from a turn rolls back that turn and every later one that changed files and is not rolled back already', () => {
    const users = ['msg_zero', 'msg_one', 'msg_mid', 'msg_two']
    const all = [...turns, { ...turns[0]!, messageID: 'msg_mid', changes: [] }, { ...turns[0]!, messageID: 'msg_zero' }]
    expect(turnsWithFileChanges(users, 'msg_one', all).map((t) => t.messageID)).toEqual(['msg_one', 'msg_two'])
    expect(turnsWithFileChanges(users, 'msg_two', [turns[0]!, { ...turns[1]!, status: 'restored' }])).toEqual([])
    expect(turnsWithFileChanges(users, 'msg_gone', all)).toEqual([])
  })

  it('sums changes, groups plans, and overwrites only conflicts switched to take', () => {
    expect(summarizeChanges(turns[0].changes)).toMatchObject({ added: 1, modified: 1, binary: 1, plus: 1 })
    const g = groupPlan(plan)
    expect([g.removed.length, g.conflicts.length, g.restored.length]).toEqual([1, 2, 0])
    expect(overwriteIds(g.conflicts, {})).toEqual([])
    expect(overwriteIds(g.conflicts, { 'r:img.png': 'take', 'x:two.txt': 'keep' })).toEqual(['r:img.png'])
  })

  it('the restore sheet: which modes each purpose offers, when its confirm can be pressed, what it says', () => {
    expect(restoreModes('retake')).toEqual(['both', 'conversation', 'files'])
    expect(restoreModes('continue')).toEqual(['both', 'conversation'])
    expect(restoreModes('rewind')).toEqual(['both', 'conversation'])
    expect(restoreModes('files')).toEqual(['files'])
    const ready = { mode: 'files' as const, planned: true, empty: false, applying: false }
    expect(canConfirmRestore(ready)).toBe(true)
    expect(canConfirmRestore({ ...ready, planned: false })).toBe(false)
    expect(canConfirmRestore({ ...ready, empty: true })).toBe(false)
    expect(canConfirmRestore({ ...ready, mode: 'both', empty: true })).toBe(true)
    expect(canConfirmRestore({ ...ready, mode: 'conversation', planned: false })).toBe(true)
    expect(canConfirmRestore({ ...ready, applying: true })).toBe(false)
    expect(confirmRestoreLabel('retake', 'both', false)).toBe('Retake')
    expect(confirmRestoreLabel('rewind', 'both', false)).toBe('Go back to before this turn')
    expect(confirmRestoreLabel('rewind', 'conversation', false)).toBe('Go back to before this turn')
    expect(confirmRestoreLabel('retake', 'files', false)).toBe('Restore files')
    expect(confirmRestoreLabel('files', 'files', true)).toBe('Restoring…')
    expect(filesOnlyIntro(null)).toBe('The conversation is not changed.')
    expect(filesOnlyIntro(1)).toBe('Undoes what this turn did on disk. The conversation is not changed.')
  })

  it('labels a turn by its text, falling back to its time', () => {
    expect(turnLabel({ messageID: 'msg_one', createdAt: 0 }, [user('msg_one', 'a\n  b')])).toBe('a b')
    expect(turnLabel({ messageID: 'msg_x', createdAt: 0 }, undefined)).toMatch(/^Turn at /)
  })

  it('reports results and only offers undo for restores that wrote something', () => {
    expect(resultHeadline({ ...applied, status: 'noop', applied: [] }, 'Restore')).toMatch(/nothing to change/)
    expect(resultHeadline({ ...applied, status: 'partial', failed: [{ root: DIR, path: 'a', error: 'EACCES' }] }, 'Restore')).toBe(
      'Restore partly done: 1 file removed, 1 file restored, 1 file kept as they are, 1 file failed.',
    )
    expect(undoableRestoreId(applied)).toBe('rst_1')
    expect(undoableRestoreId({ ...applied, status: 'noop' })).toBeNull()
    expect(undoableRestoreId({ ...applied, applied: [] })).toBeNull()
  })

  it('reads clean-up limits: blank is no limit, zero and fractions of turns are refused', () => {
    expect(parseCleanup('', '')).toEqual({ ok: true, value: {} })
    expect(parseCleanup('1.5', '3')).toEqual({ ok: true, value: { maxAgeDays: 1.5, maxTurnsPerSession: 3 } })
    expect(parseCleanup('x', '')).toMatchObject({ ok: false })
    expect(parseCleanup('', '2.5')).toMatchObject({ ok: false })
  })
})
