import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { setBridge } from '../../../src/bridge'
import { ForkAction, defaultForkFolder } from '../../../src/features/retake/ForkAction'
import { RetakeProvider, type RetakeContextValue } from '../../../src/features/retake/retake-context'
import { useUiStore } from '../../../src/ui/ui-store'
import { choiceKey, useModelStore } from '../../../src/features/models'
import type { RetakeBridge } from '../../../shared/ipc-contract'
import { SID, assistant, user } from './fixtures'

afterEach(() => setBridge(null))
const messages = [user('msg_u1', 'first'), assistant('msg_a1', 'msg_u1'), user('msg_u2', 'second'), assistant('msg_a2', 'msg_u2')]
const ctx = { sessionID: SID, getMessages: () => messages, locked: false } as unknown as RetakeContextValue

function setup(answer: unknown) {
  const calls: unknown[] = []
  setBridge({ invoke: vi.fn(async (_c: string, input: unknown) => (calls.push(input), answer)), on: () => () => {} } as unknown as RetakeBridge)
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ScopeProvider scope={{ connection: 'c', directory: '/home/me/app' }}>
        <RetakeProvider value={ctx}>
          <ForkAction message={messages[1]!} />
        </RetakeProvider>
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return calls
}

describe('Fork', () => {
  it('proposes a sibling folder named for the time', () => {
    expect(defaultForkFolder('/home/me/app/', new Date(2026, 10, 24, 9, 5))).toBe('/home/me/app-fork-1124-0905')
  })

  it('forks the turn of the message into the folder chosen, and opens the new session there', async () => {
    const calls = setup({ status: 'done', sessionID: 'ses_fork', directory: '/tmp/elsewhere', skipped: [] })
    await userEvent.click(screen.getByTestId('fork-message'))
    await userEvent.clear(screen.getByTestId('fork-folder'))
    await userEvent.type(screen.getByTestId('fork-folder'), '/tmp/elsewhere')
    await userEvent.click(screen.getByTestId('fork-confirm'))
    expect(calls).toEqual([{ directory: '/home/me/app', sessionID: SID, turnID: 'msg_u1', files: 'folder', folder: '/tmp/elsewhere' }])
    expect(useUiStore.getState().project).toBe('/tmp/elsewhere')
    expect(useUiStore.getState().selected['/tmp/elsewhere']).toBe('ses_fork')
    expect(screen.queryByTestId('fork-panel')).toBeNull()
  })

  it('goes on with the model the session was using: the one chosen for it, else the one it last ran', async () => {
    useModelStore.setState({ models: { [choiceKey('/home/me/app', SID)]: { providerID: 'local', modelID: 'thinker' } }, agents: { [choiceKey('/home/me/app', SID)]: 'plan' } })
    setup({ status: 'done', sessionID: 'ses_fork', directory: '/tmp/elsewhere', skipped: [] })
    await userEvent.click(screen.getByTestId('fork-message'))
    await userEvent.click(screen.getByTestId('fork-confirm'))
    expect(useModelStore.getState().models[choiceKey('/tmp/elsewhere', 'ses_fork')]).toEqual({ providerID: 'local', modelID: 'thinker' })
    expect(useModelStore.getState().agents[choiceKey('/tmp/elsewhere', 'ses_fork')]).toBe('plan')
  })

  it('without a choice, the fork keeps the model the session last ran with (not the server default)', async () => {
    useModelStore.setState({ models: {}, agents: {} })
    setup({ status: 'done', sessionID: 'ses_fork2', directory: '/home/me/app', skipped: [] })
    await userEvent.click(screen.getByTestId('fork-message'))
    await userEvent.click(screen.getByTestId('fork-leave-mode'))
    await userEvent.click(screen.getByTestId('fork-confirm'))
    expect(useModelStore.getState().models[choiceKey('/home/me/app', 'ses_fork2')]).toEqual({ providerID: 'local', modelID: 'echo' })
  })

  it('says why a fork was refused and keeps the panel open', async () => {
    setup({ status: 'failed', error: '/tmp/x already exists and is not an empty folder: nothing there is overwritten' })
    await userEvent.click(screen.getByTestId('fork-message'))
    await userEvent.click(screen.getByTestId('fork-confirm'))
    expect(screen.getByTestId('fork-error').textContent).toContain('not an empty folder')
    expect(screen.getByTestId('fork-panel')).toBeTruthy()
  })
})
