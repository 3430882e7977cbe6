/**
 * Settings › opencode server says what the connection runs with and whether opencode could use its
 * config: the effect of the config-file, own-setup and remote-URL fields, which otherwise showed
 * only "Saved.". Fake host at the bridge, opencode faked at the SDK's HTTP edge (global fetch); the
 * ConfigJsonError shape is opencode 1.18.33's answer to a config file that is not JSON(C).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { setBridge } from '../../../src/bridge'
import { SettingsDialog } from '../../../src/features/settings/SettingsDialog'
import type { RetakeBridge, ServerSetup, SettingsView } from '../../../shared/ipc-contract'

const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { 'content-type': 'application/json' } })

const embedded: ServerSetup = { kind: 'embedded', remoteUrl: null, remoteFrom: null, configPath: '/cli/opencode.json', configFrom: 'command line', home: 'user' }

function setup(opts: { serverSetup: ServerSetup; config: () => Response }) {
  let settings: SettingsView = {
    remoteUrl: null,
    opencodeConfigPath: null,
    useUserOpencodeHome: true,
    extraFolders: [],
    excludes: [],
    serverSetup: opts.serverSetup,
  }
  const invoked: string[] = []
  setBridge({
    async invoke(channel: string, input: Record<string, unknown>) {
      invoked.push(channel)
      if (channel === 'settings.get') return settings
      if (channel === 'settings.update') {
        // As the host: the setup follows the saved fields (no command-line override here).
        const next = { ...settings, ...input } as SettingsView
        const path = next.opencodeConfigPath
        settings = { ...next, serverSetup: { ...embedded, configPath: path, configFrom: path ? 'settings' : null, home: next.useUserOpencodeHome ? 'user' : 'separate' } }
        return settings
      }
      if (channel === 'server.restart') return { state: 'starting', kind: 'embedded' }
      throw new Error(`unexpected ${channel}`)
    },
    on: () => () => {},
  } as unknown as RetakeBridge)
  vi.stubGlobal(
    'fetch',
    vi.fn(async (req: Request) => (new URL(req.url).pathname === '/opencode/config' ? opts.config() : new Response('no', { status: 404 }))),
  )
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
        <SettingsDialog project="/p" onClose={() => {}} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return { invoked }
}

afterEach(() => {
  vi.unstubAllGlobals()
  setBridge(null)
})

describe('Settings › what the opencode server runs with', () => {
  it('names the config file in use, says the command line wins, and that opencode read it', async () => {
    setup({ serverSetup: embedded, config: () => json({ model: 'fake/echo' }) })
    const text = await screen.findByTestId('server-setup-text')
    expect(text).toHaveTextContent('the config file /cli/opencode.json (given on the command line, which wins over the config field)')
    expect(text).toHaveTextContent('your own opencode setup')
    expect(await screen.findByTestId('config-ok')).toHaveTextContent('opencode read its config: default model fake/echo')
    expect(screen.queryByTestId('config-error')).toBeNull()
  })

  it('a config file opencode cannot parse is shown with opencode’s own explanation, and a restart is offered', async () => {
    const message = '\n--- JSONC Input ---\n{ "model": oops }\n--- Errors ---\nInvalidSymbol at line 1, column 12\n--- End ---'
    const { invoked } = setup({
      serverSetup: { ...embedded, configPath: '/me/bad.json', configFrom: 'settings' },
      config: () => json({ name: 'ConfigJsonError', data: { path: '/me/bad.json', message } }, 400),
    })
    const error = await screen.findByTestId('config-error')
    expect(error).toHaveTextContent('opencode cannot read its config file /me/bad.json')
    expect(error).toHaveTextContent('InvalidSymbol at line 1, column 12')
    expect(screen.getByTestId('server-setup-text')).not.toHaveTextContent('command line')
    expect(screen.queryByTestId('config-ok')).toBeNull()
    await userEvent.click(screen.getByTestId('config-restart'))
    await waitFor(() => expect(invoked).toContain('server.restart'))
  })

  it('a remote server: says the config and home fields do not apply to it', async () => {
    setup({
      serverSetup: { ...embedded, kind: 'remote', remoteUrl: 'http://10.0.0.5:4096', remoteFrom: 'settings', configPath: null, configFrom: null },
      config: () => json({}),
    })
    const text = await screen.findByTestId('server-setup-text')
    expect(text).toHaveTextContent('In use: the remote server http://10.0.0.5:4096. It has its own config and keys')
    expect(await screen.findByTestId('config-ok')).toHaveTextContent('it sets no default model')
  })

  it('saving the fields changes what it says is in use', async () => {
    setup({ serverSetup: { ...embedded, configPath: null, configFrom: null }, config: () => json({}) })
    expect(await screen.findByTestId('server-setup-text')).toHaveTextContent('no extra config file and your own opencode setup')
    await userEvent.type(screen.getByTestId('config-path'), '/me/opencode.json')
    await userEvent.click(screen.getByTestId('use-user-home'))
    await userEvent.click(screen.getByTestId('server-save'))
    await waitFor(() => expect(screen.getByTestId('server-setup-text')).toHaveTextContent('the config file /me/opencode.json and Retake’s separate opencode setup'))
  })
})
