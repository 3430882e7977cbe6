import { describe, expect, it } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { App } from '../../../src/app/App'
import { BridgeError, setBridge } from '../../../src/bridge'
import type { RetakeBridge, ServerStatus } from '../../../shared/ipc-contract'

/** A host double: answers channels from a table and lets the test push server.status. */
function fakeBridge(status: ServerStatus) {
  const listeners = new Set<(s: ServerStatus) => void>()
  let current = status
  const calls: string[] = []
  const bridge = {
    async invoke(channel: string, input: { path?: string }) {
      calls.push(channel)
      switch (channel) {
        case 'app.info':
          return { mode: 'browser', version: '0.0.0', canPickFolder: false, attachmentKey: 'ab'.repeat(32) }
        case 'server.status':
          return current
        case 'server.restart':
          current = { state: 'starting', kind: 'embedded' }
          return current
        case 'projects.recent':
          return []
        case 'projects.open':
          throw new BridgeError('not-found', `No folder at ${input.path} (ENOENT)`)
        default:
          throw new BridgeError('internal', `unexpected ${channel}`)
      }
    },
    on(_event: string, listener: (s: ServerStatus) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  return {
    bridge: bridge as unknown as RetakeBridge,
    calls,
    push(s: ServerStatus) {
      current = s
      listeners.forEach((l) => l(s))
    },
  }
}

describe('AppShell against a host double', () => {
  it('goes loading → error (failed server, Restart) → ready (project picker), and shows projects.open errors', async () => {
    const host = fakeBridge({ state: 'starting', kind: 'embedded' })
    setBridge(host.bridge)
    const { container } = render(<App />)
    await screen.findByText('Starting the opencode server…')
    expect(container).toHaveAttribute('data-app-state', 'loading')

    host.push({ state: 'failed', kind: 'embedded', error: 'opencode exited with code 1' })
    await screen.findByTestId('server-restart')
    expect(container).toHaveAttribute('data-app-state', 'error')
    expect(screen.getByTestId('server-status')).toHaveTextContent('opencode exited with code 1')
    await userEvent.click(screen.getByTestId('server-restart'))
    await waitFor(() => expect(host.calls).toContain('server.restart'))

    host.push({ state: 'restarting', kind: 'embedded', attempt: 2 })
    await screen.findByText(/restarting \(attempt 2\)/)

    host.push({ state: 'ready', kind: 'embedded', version: '1.18.33' })
    await screen.findByTestId('project-path')
    await waitFor(() => expect(container).toHaveAttribute('data-app-state', 'ready'))

    await userEvent.type(screen.getByTestId('project-path'), '/nope')
    await userEvent.click(screen.getByTestId('open-project'))
    expect(await screen.findByTestId('project-error')).toHaveTextContent('No folder at /nope (ENOENT)')
  })
})
