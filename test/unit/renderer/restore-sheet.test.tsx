import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { setBridge } from '../../../src/bridge'
import { RestoreSheet, type RestorePurpose } from '../../../src/features/checkpoints/RestoreSheet'
import type { RestorePlan, RetakeBridge } from '../../../shared/ipc-contract'
import { SID } from './fixtures'

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

function renderSheet(purpose: RestorePurpose, answer: RestorePlan = plan) {
  setBridge({
    async invoke(channel: string) {
      if (channel === 'checkpoints.plan') return answer
      throw new Error(`unexpected ${channel}`)
    },
    on: () => () => {},
  } as unknown as RetakeBridge)
  const onConfirm = vi.fn()
  const onCancel = vi.fn()
  render(
    <QueryClientProvider client={new QueryClient()}>
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
})
