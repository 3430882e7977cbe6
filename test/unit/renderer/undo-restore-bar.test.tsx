import { afterEach, describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { setBridge } from '../../../src/bridge'
import { UndoRestoreBar } from '../../../src/features/checkpoints/UndoRestoreBar'
import type { RetakeBridge } from '../../../shared/ipc-contract'

afterEach(() => setBridge(null))

const result = (restoreId: string | null, n: number) => ({
  restoreId,
  status: restoreId ? 'done' : 'noop',
  applied: Array.from({ length: n }, (_, i) => ({ root: '/p', path: `f${i}`, kind: 'restore' })),
  skipped: [],
  failed: [],
  turnsMarkedRestored: false,
  warnings: [],
})

function setup(answers: ReturnType<typeof result>[]) {
  const undone: string[] = []
  setBridge({
    async invoke(channel: string, input: { restoreId: string }) {
      if (channel !== 'checkpoints.undo') throw new Error(`unexpected ${channel}`)
      undone.push(input.restoreId)
      return answers.shift()
    },
    on: () => () => {},
  } as unknown as RetakeBridge)
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
        <UndoRestoreBar restore={{ restoreId: 'rst_1', result: result('rst_1', 2) }} onDone={() => {}} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return undone
}

describe('UndoRestoreBar', () => {
  it('undo, then redo, then undo again: each click undoes the record the previous one made', async () => {
    const undone = setup([result('rst_2', 2), result('rst_3', 2), result('rst_4', 2)])
    expect(screen.getByTestId('restore-summary')).toHaveTextContent('Files rolled back: 2 files restored.')
    await userEvent.click(screen.getByTestId('undo-restore'))
    expect(await screen.findByTestId('redo-restore')).toHaveTextContent('Redo restore')
    expect(screen.getByTestId('restore-summary')).toHaveTextContent('Undo put 2 files back as they were before the restore.')
    await userEvent.click(screen.getByTestId('redo-restore'))
    expect(await screen.findByTestId('undo-restore')).toBeInTheDocument()
    expect(screen.getByTestId('restore-summary')).toHaveTextContent('Redo rolled 2 files back again.')
    await userEvent.click(screen.getByTestId('undo-restore'))
    await screen.findByTestId('redo-restore')
    expect(undone).toEqual(['rst_1', 'rst_2', 'rst_3'])
  })

  it('an undo with nothing to do says so and keeps offering the same step', async () => {
    const undone = setup([result(null, 0)])
    await userEvent.click(screen.getByTestId('undo-restore'))
    expect(await screen.findByText(/Nothing changed: the files already were that way/)).toBeInTheDocument()
    expect(screen.getByTestId('undo-restore')).toBeInTheDocument()
    expect(undone).toEqual(['rst_1'])
  })
})
