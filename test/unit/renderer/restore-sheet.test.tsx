import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { queryKeys } from '../../../src/api/query-keys'
import type { MessageWithParts, Part } from '../../../src/api/types'
import { setBridge } from '../../../src/bridge'
import { RestoreSheet, type RestorePurpose } from '../../../src/features/checkpoints/RestoreSheet'
import type { RestorePlan, RetakeBridge } from '../../../shared/ipc-contract'
import { assistant, SID, user } from './fixtures'

const DIR = '/p'

const plan: RestorePlan = {
  planId: 'plan_1',
  turns: [{ sessionID: SID, messageID: 'msg_one' }],
  warnings: [],
  actions: [
    { id: 'r:a.txt', root: DIR, path: 'a.txt', kind: 'restore' },
    { id: 'r:new.txt', root: DIR, path: 'new.txt', kind: 'delete' },
    { id: 'r:b.txt', root: DIR, path: 'b.txt', kind: 'conflict', reason: 'edited since the turn' },
  ],
}
const nothing: RestorePlan = { ...plan, actions: [{ id: 'r:a.txt', root: DIR, path: 'a.txt', kind: 'nothing' }] }

function renderSheet(purpose: RestorePurpose, answer: RestorePlan = plan, messages?: MessageWithParts[]) {
  setBridge({
    async invoke(channel: string) {
      if (channel === 'checkpoints.plan') return answer
      throw new Error(`unexpected ${channel}`)
    },
    on: () => () => {},
  } as unknown as RetakeBridge)
  const onConfirm = vi.fn()
  const onCancel = vi.fn()
  const qc = new QueryClient()
  // The chat's messages cache, as the event stream fills it.
  if (messages) qc.setQueryData(queryKeys.messages({ connection: 'c', directory: DIR }, SID), messages)
  render(
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: 'c', directory: DIR }}>
        <RestoreSheet sessionID={SID} messageID="msg_one" purpose={purpose} onConfirm={onConfirm} onCancel={onCancel} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return { onConfirm, onCancel }
}

const retake: RestorePurpose = { kind: 'retake', modelLabel: 'Echo', laterTurns: 1 }

afterEach(() => setBridge(null))

describe('RestoreSheet', () => {
  it('a retake: files and conversation by default, conflicts kept unless taken, any file can be kept as it is', async () => {
    const { onConfirm } = renderSheet(retake)
    const sheet = screen.getByRole('dialog', { name: 'Retake this turn' })
    expect(within(sheet).getByRole('heading', { name: 'Retake with Echo' })).toBeInTheDocument()
    expect(sheet).toHaveTextContent('The 1 later turn will be discarded')
    expect(await within(sheet).findByTestId('restore-put-back')).toHaveTextContent('a.txt')
    expect(within(sheet).getByTestId('restore-remove')).toHaveTextContent('new.txt')
    expect(within(sheet).getByLabelText('Files and conversation')).toBeChecked()
    const conflict = within(within(sheet).getByTestId('restore-conflicts')).getByTestId('conflict-choice')
    expect(conflict).toHaveValue('keep')
    await userEvent.selectOptions(conflict, 'take')
    await userEvent.selectOptions(within(within(sheet).getByTestId('restore-remove')).getByTestId('file-choice'), 'keep')
    await userEvent.click(within(sheet).getByTestId('restore-confirm'))
    expect(onConfirm).toHaveBeenCalledWith({ mode: 'both', planId: 'plan_1', overwrite: ['r:b.txt'], keep: ['r:new.txt'] })
  })

  it('nothing to restore: says so; the retake can still go ahead, a files-only restore cannot', async () => {
    renderSheet(retake, nothing)
    expect(await screen.findByTestId('restore-empty')).toHaveTextContent('Nothing to restore')
    expect(screen.getByTestId('restore-confirm')).toHaveTextContent('Retake')
    expect(screen.getByTestId('restore-confirm')).toBeEnabled()
    await userEvent.click(screen.getByLabelText(/Files only/))
    expect(screen.getByTestId('restore-confirm')).toBeDisabled()
  })

  it('continuing from an attempt offers no files only; Escape cancels', async () => {
    const { onCancel } = renderSheet({ kind: 'continue', laterTurns: 0 })
    await screen.findByTestId('restore-put-back')
    expect(screen.getByTestId('continue-explainer')).toBeInTheDocument()
    expect(screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['both', 'conversation'])
    await userEvent.keyboard('{Escape}')
    expect(onCancel).toHaveBeenCalled()
  })

  it('files only (the Checkpoints panel): no choice of what to roll back, and what applying it says', async () => {
    renderSheet({ kind: 'files', turnLabel: 'WRITE a.txt', applying: true, error: 'EACCES: permission denied' })
    const sheet = screen.getByTestId('restore-sheet')
    expect(within(sheet).getByRole('heading', { name: 'Restore back to “WRITE a.txt”' })).toBeInTheDocument()
    await within(sheet).findByTestId('restore-put-back')
    expect(sheet).toHaveTextContent('Undoes what this turn did on disk. The conversation is not changed.')
    expect(within(sheet).queryByRole('radio')).toBeNull()
    expect(within(sheet).getByRole('alert')).toHaveTextContent('EACCES: permission denied')
    expect(within(sheet).getByTestId('restore-confirm')).toHaveTextContent('Restoring…')
    expect(within(sheet).getByTestId('restore-confirm')).toBeDisabled()
  })

  it('says every choice in plain words, never “Take the checkpoint”', async () => {
    renderSheet(retake)
    const options = (name: string) =>
      within(screen.getByRole('combobox', { name }))
        .getAllByRole('option')
        .map((o) => o.textContent)
    await screen.findByTestId('restore-put-back')
    expect(options('What to do with a.txt')).toEqual(['Put back the version from before the turn', 'Keep my version'])
    expect(options('What to do with new.txt')).toEqual(['Delete it', 'Keep it'])
    expect(options('What to do with b.txt')).toEqual(['Keep my version', 'Put back the version from before the turn'])
    expect(screen.getByTestId('restore-sheet')).not.toHaveTextContent(/checkpoint/i)
  })

  it('a conflict on a file the turn created offers to delete it, not to put a version back', async () => {
    const created: RestorePlan = { ...plan, actions: [{ id: 'r:c.txt', root: DIR, path: 'c.txt', kind: 'conflict', reason: 'edited since the turn', existedBefore: false }] }
    renderSheet(retake, created)
    const choice = await screen.findByRole('combobox', { name: 'What to do with c.txt' })
    expect(
      within(choice)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Keep my version', 'Delete it'])
  })

  it('every row shows what will change on disk for the choice selected', async () => {
    const diff = '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-mine now\n+from before\n'
    renderSheet(retake, { ...plan, actions: [{ id: 'r:a.txt', root: DIR, path: 'a.txt', kind: 'restore', diff, binary: false }] })
    await userEvent.click(await screen.findByRole('button', { name: 'Show the changes to a.txt' }))
    const putBack = screen.getByRole('group', { name: /^If you put it back/ })
    expect(within(putBack).getByRole('table')).toHaveTextContent(/mine now.*from before/)
    const removed = within(putBack).getByText('mine now').closest('tr')!
    expect(removed).toHaveClass('diff-del')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'What to do with a.txt' }), 'Keep my version')
    const kept = screen.getByRole('group', { name: /^Your version now/ })
    // Kept: shown from the version before the turn to the one that stays.
    expect(within(kept).getByText('mine now').closest('tr')).toHaveClass('diff-add')
    expect(screen.queryByRole('group', { name: /^If you put it back/ })).toBeNull()
  })

  it('names the files the turn wrote outside the project: they stay', async () => {
    const write = (id: string, filePath: string) =>
      ({
        id,
        sessionID: SID,
        messageID: 'msg_a',
        type: 'tool',
        callID: id,
        tool: 'write',
        state: { status: 'completed', input: { filePath, content: 'x' }, output: '', title: '', metadata: {}, time: { start: 1, end: 2 } },
      }) as unknown as Part
    renderSheet(retake, plan, [user('msg_one', 'WRITE'), assistant('msg_a', 'msg_one', {}, [write('t1', '/outside.txt'), write('t2', `${DIR}/a.txt`)])])
    const outside = await screen.findByTestId('restore-outside')
    expect(outside).toHaveTextContent('../outside.txt was written outside the project: it stays')
    expect(outside).not.toHaveTextContent('a.txt was')
  })

  it('“Nothing to restore” only when true: files over the size cap changed, so it says they stay', async () => {
    renderSheet(retake, { ...plan, actions: [{ id: 'r:big.bin', root: DIR, path: 'big.bin', kind: 'not-checkpointed', reason: 'not restorable: over the 512 MB limit' }] })
    const empty = await screen.findByTestId('restore-empty')
    expect(empty).not.toHaveTextContent('Nothing to restore')
    expect(empty).toHaveTextContent('Nothing Retake can put back')
    expect(screen.getByTestId('restore-left')).toHaveTextContent('big.bin')
  })

  it('a compare names every model it will run', async () => {
    renderSheet({ kind: 'retake', modelLabel: 'Echo 2', laterTurns: 0, compareLabels: ['Echo 2', 'Text only', 'Claude Fake'] })
    const sheet = screen.getByRole('dialog', { name: 'Retake this turn' })
    expect(within(sheet).getByRole('heading', { name: 'Retake with Echo 2, Text only and Claude Fake' })).toBeInTheDocument()
    expect(sheet).toHaveTextContent('runs on each of the 3 models')
    await within(sheet).findByTestId('restore-put-back')
  })
})
