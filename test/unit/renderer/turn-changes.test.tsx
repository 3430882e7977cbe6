/**
 * A turn's changes under its message: a file in an extra folder (Settings) is shown with its folder,
 * so the setting's effect (that folder is recorded and rolled back) can be seen where changes are.
 */
import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { TurnChanges } from '../../../src/features/checkpoints/TurnChanges'
import type { TurnCheckpoint } from '../../../shared/ipc-contract'
import { SID } from './fixtures'

const change = (root: string, path: string) => ({ root, path, change: 'modified' as const, binary: false, added: 1, removed: 0 })

describe('TurnChanges', () => {
  it('shows project files relative to the project and extra-folder files with their folder', async () => {
    const turn: TurnCheckpoint = { messageID: 'msg_1', status: 'sealed', createdAt: 1, changes: [change('/work/p', 'notes.txt'), change('/data/extra/', 'notes.txt')] }
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ScopeProvider scope={{ connection: 'c', directory: '/work/p' }}>
          <TurnChanges sessionID={SID} turn={turn} />
        </ScopeProvider>
      </QueryClientProvider>,
    )
    await userEvent.click(screen.getByTestId('turn-changes-toggle'))
    const shown = [...document.querySelectorAll('.change-path')].map((e) => e.textContent!.trim())
    expect(shown).toEqual(['notes.txt', '/data/extra/notes.txt'])
  })
})
