import { afterEach, describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { setBridge } from '../../../src/bridge'
import { checkpointKeys } from '../../../src/api/query-keys'
import { UndoRestoreBar } from '../../../src/features/checkpoints/UndoRestoreBar'
import { restoreNoteText } from '../../../src/features/checkpoints/checkpoint-logic'
import type { RetakeBridge } from '../../../shared/ipc-contract'
import { SID } from './fixtures'

afterEach(() => setBridge(null))

const result = (restoreId: string | null, n: number, skipped = 0) => ({
  restoreId,
  status: restoreId ? 'done' : 'noop',
  applied: Array.from({ length: n }, (_, i) => ({ root: '/p', path: `f${i}`, kind: 'restore' })),
  skipped: Array.from({ length: skipped }, (_, i) => ({ root: '/p', path: `s${i}`, reason: 'changed since' })),
  failed: [],
  turnsMarkedRestored: false,
  warnings: [],
})

/**
 * The host's undo chain as the engine keeps it: its last restore is the top record, rolled back
 * while an even number of undos stand on the restore; an undo with nothing to do adds no record.
 */
function setup(answers: ReturnType<typeof result>[]) {
  const undone: string[] = []
  const host = { last: { restoreId: 'rst_1', messageID: 'msg_1', at: 1, rolledBack: true } }
  setBridge({
    async invoke(channel: string, input: { restoreId: string; sessionID: string }) {
      if (channel === 'checkpoints.lastRestore') return input.sessionID === SID ? host.last : null
      if (channel !== 'checkpoints.undo') throw new Error(`unexpected ${channel}`)
      undone.push(input.restoreId)
      const r = answers.shift()!
      if (r.restoreId) host.last = { ...host.last, restoreId: r.restoreId, rolledBack: !host.last.rolledBack }
      return r
    },
    on: () => () => {},
  } as unknown as RetakeBridge)
  const qc = new QueryClient()
  render(
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
        <UndoRestoreBar sessionID={SID} note="The turn’s file changes were rolled back: 2 files put back." onDone={() => {}} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return { undone, host, qc }
}

describe('UndoRestoreBar', () => {
  it('undo, then redo, then undo again: each click undoes the host’s last record, the one the previous click made', async () => {
    const { undone } = setup([result('rst_2', 2), result('rst_3', 2), result('rst_4', 2)])
    // Shown once the host's record is read: the bar acts on nothing else.
    expect(await screen.findByTestId('restore-summary')).toHaveTextContent('The turn’s file changes were rolled back: 2 files put back.')
    await userEvent.click(await screen.findByTestId('undo-restore'))
    expect(await screen.findByTestId('redo-restore')).toHaveTextContent('Redo restore')
    expect(screen.getByTestId('restore-summary')).toHaveTextContent('Restore undone: 2 files back as they were before the restore.')
    await userEvent.click(screen.getByTestId('redo-restore'))
    expect(await screen.findByTestId('undo-restore')).toBeEnabled()
    expect(screen.getByTestId('restore-summary')).toHaveTextContent('Restore redone: 2 files rolled back to before the turn again.')
    await userEvent.click(screen.getByTestId('undo-restore'))
    await screen.findByTestId('redo-restore')
    expect(undone).toEqual(['rst_1', 'rst_2', 'rst_3'])
  })

  it('an undo with nothing to do says so and keeps offering the same step', async () => {
    const { undone } = setup([result(null, 0)])
    await userEvent.click(await screen.findByTestId('undo-restore'))
    expect(await screen.findByText(/Nothing changed: the files already were that way/)).toBeInTheDocument()
    expect(screen.getByTestId('undo-restore')).toBeEnabled()
    expect(undone).toEqual(['rst_1'])
  })

  it('a restore undone elsewhere (the Checkpoints panel, /undo) is seen here: the bar offers the redo and says where the files are', async () => {
    const { undone, host, qc } = setup([result('rst_3', 1)])
    await screen.findByTestId('undo-restore')
    // The panel's undo: a new top record on the host, and the one query invalidated.
    host.last = { ...host.last, restoreId: 'rst_2', rolledBack: false }
    await qc.invalidateQueries({ queryKey: checkpointKeys.lastRestore('/p', SID) })
    expect(await screen.findByTestId('redo-restore')).toBeEnabled()
    expect(screen.getByTestId('restore-summary')).toHaveTextContent('The files are back as they were before the restore.')
    await userEvent.click(screen.getByTestId('redo-restore'))
    expect(await screen.findByTestId('undo-restore')).toBeEnabled()
    expect(screen.getByTestId('restore-summary')).toHaveTextContent('Restore redone: 1 file rolled back to before the turn again.')
    expect(undone).toEqual(['rst_2'])
  })

  it('says who changed what: the turn’s changes rolled back per kind, and a file changed since the restore is not called yours', async () => {
    expect(restoreNoteText({ applied: [{ kind: 'delete' }, { kind: 'restore' }], skipped: [{}], failed: [] })).toBe(
      'The turn’s file changes were rolled back: 1 file deleted, 1 file put back, 1 file kept as it was.',
    )
    setup([result('rst_2', 1, 1)])
    await userEvent.click(await screen.findByTestId('undo-restore'))
    await screen.findByTestId('redo-restore')
    const said = screen.getByTestId('restore-summary')
    expect(said).toHaveTextContent('Restore undone: 1 file back as it was before the restore; 1 file changed since the restore stayed as it was.')
    expect(said).not.toHaveTextContent(/you had/)
  })

  it('while a click runs after a change made elsewhere, the bar keeps saying where the files are, not its older words', async () => {
    let finish = (): void => undefined
    const host = { last: { restoreId: 'rst_2', messageID: 'msg_1', at: 1, rolledBack: false } }
    setBridge({
      async invoke(channel: string) {
        if (channel === 'checkpoints.lastRestore') return host.last
        await new Promise<void>((r) => (finish = r))
        host.last = { ...host.last, restoreId: 'rst_3', rolledBack: true }
        return result('rst_3', 2)
      },
      on: () => () => {},
    } as unknown as RetakeBridge)
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
          <UndoRestoreBar sessionID={SID} note="The turn’s file changes were rolled back: 2 files put back." onDone={() => {}} />
        </ScopeProvider>
      </QueryClientProvider>,
    )
    // Undone in the panel before the bar was read: the bar says so and offers the redo.
    await userEvent.click(await screen.findByTestId('redo-restore'))
    expect(screen.getByTestId('restore-summary')).toHaveTextContent('The files are back as they were before the restore.')
    expect(screen.getByTestId('restore-summary')).not.toHaveTextContent('were rolled back')
    finish()
    expect(await screen.findByTestId('undo-restore')).toBeEnabled()
    expect(screen.getByTestId('restore-summary')).toHaveTextContent('Restore redone: 2 files rolled back to before the turn again.')
  })
})
