import { afterEach, describe, expect, it } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { BridgeError, setBridge } from '../../../src/bridge'
import { SettingsDialog } from '../../../src/features/settings/SettingsDialog'
import { checkNewFolder, parseExcludes, serverPatch } from '../../../src/features/checkpoints/settings-logic'
import type { RetakeBridge, SettingsView as Settings } from '../../../shared/ipc-contract'

function fakeHost(initial: Partial<Settings> = {}) {
  let settings: Settings = { remoteUrl: null, opencodeConfigPath: null, useUserOpencodeHome: false, extraFolders: [], excludes: [], ...initial }
  const updates: Record<string, unknown>[] = []
  const bridge = {
    async invoke(channel: string, input: Record<string, unknown>) {
      if (channel === 'settings.get') return settings
      if (channel === 'settings.update') {
        updates.push(input)
        const folders = input.extraFolders as Settings['extraFolders'] | undefined
        // The host's own check: a folder that does not exist is refused with its message.
        const missing = folders?.find((f) => f.path.startsWith('/missing'))
        if (missing) throw new BridgeError('bad-input', `No folder at ${missing.path}`)
        const { remotePassword, ...rest } = input
        // As the host: a typed password is saved for the URL; another URL without one drops it.
        const saved = remotePassword !== undefined || (settings.remotePasswordSaved === true && rest.remoteUrl === settings.remoteUrl)
        settings = { ...settings, ...(rest as Partial<Settings>), remotePasswordSaved: saved }
        return settings
      }
      throw new Error(`unexpected ${channel}`)
    },
    on: () => () => {},
  }
  setBridge(bridge as unknown as RetakeBridge)
  return { updates, current: () => settings }
}

function renderDialog() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={qc}>
      <SettingsDialog project="/work/project" onClose={() => {}} />
    </QueryClientProvider>,
  )
}

afterEach(() => setBridge(null))

describe('SettingsDialog', () => {
  it('adds, marks shared and removes extra folders; shows local and host validation messages', async () => {
    const host = fakeHost({ extraFolders: [{ path: '/data/a', shared: false }] })
    renderDialog()
    const section = await screen.findByTestId('settings-folders')
    expect(screen.getByTestId('settings-dialog')).toHaveTextContent(/Never rolled back: shared folders/)
    expect(within(section).getAllByTestId('settings-folder')).toHaveLength(1)

    await userEvent.type(screen.getByTestId('folder-path'), 'relative/dir')
    await userEvent.click(screen.getByTestId('folder-add'))
    expect(screen.getByTestId('folder-error')).toHaveTextContent('Use a full path')
    expect(host.updates).toHaveLength(0)

    await userEvent.clear(screen.getByTestId('folder-path'))
    await userEvent.type(screen.getByTestId('folder-path'), '/missing/dir')
    await userEvent.click(screen.getByTestId('folder-add'))
    await waitFor(() => expect(screen.getByTestId('folder-error')).toHaveTextContent('No folder at /missing/dir'))

    await userEvent.clear(screen.getByTestId('folder-path'))
    await userEvent.type(screen.getByTestId('folder-path'), '/data/shared/')
    await userEvent.click(screen.getByTestId('folder-new-shared'))
    await userEvent.click(screen.getByTestId('folder-add'))
    await waitFor(() => expect(within(section).getAllByTestId('settings-folder')).toHaveLength(2))
    expect(host.current().extraFolders).toEqual([
      { path: '/data/a', shared: false },
      { path: '/data/shared', shared: true },
    ])
    expect(screen.queryByTestId('folder-error')).toBeNull()

    await userEvent.click(within(section).getAllByTestId('folder-shared')[0])
    await waitFor(() => expect(host.current().extraFolders[0].shared).toBe(true))
    await userEvent.click(within(section).getAllByTestId('folder-remove')[1])
    await waitFor(() => expect(within(section).getAllByTestId('settings-folder')).toHaveLength(1))
    expect(host.current().extraFolders).toEqual([{ path: '/data/a', shared: true }])
  })

  it('saves excludes one per line', async () => {
    const host = fakeHost({ excludes: ['*.log'] })
    renderDialog()
    const input = await screen.findByTestId('excludes-input')
    expect(input).toHaveValue('*.log')
    expect(screen.getByTestId('excludes-save')).toBeDisabled()
    await userEvent.type(input, '\n\nnode_modules/\n# a comment')
    await userEvent.click(screen.getByTestId('excludes-save'))
    await waitFor(() => expect(host.current().excludes).toEqual(['*.log', 'node_modules/']))
  })

  it('sends the server settings; the password only when typed, and never shows it back', async () => {
    const host = fakeHost({ remoteUrl: 'http://127.0.0.1:4096' })
    renderDialog()
    expect(await screen.findByTestId('remote-url')).toHaveValue('http://127.0.0.1:4096')
    expect(screen.getByTestId('remote-password')).toHaveValue('')
    await userEvent.type(screen.getByTestId('remote-password'), 's3cret')
    await userEvent.type(screen.getByTestId('config-path'), '/home/me/opencode.json')
    await userEvent.click(screen.getByTestId('use-user-home'))
    await userEvent.click(screen.getByTestId('server-save'))
    await waitFor(() => expect(host.updates).toHaveLength(1))
    expect(host.updates[0]).toEqual({
      remoteUrl: 'http://127.0.0.1:4096',
      remotePassword: 's3cret',
      opencodeConfigPath: '/home/me/opencode.json',
      useUserOpencodeHome: true,
    })
    await waitFor(() => expect(screen.getByTestId('remote-password')).toHaveValue(''))
    await userEvent.click(screen.getByTestId('server-save'))
    await waitFor(() => expect(host.updates).toHaveLength(2))
    expect(host.updates[1]).not.toHaveProperty('remotePassword')

    await userEvent.clear(screen.getByTestId('remote-url'))
    await userEvent.type(screen.getByTestId('remote-url'), 'ftp://x')
    await userEvent.click(screen.getByTestId('server-save'))
    expect(await screen.findByTestId('server-error')).toHaveTextContent('http:// or https://')
    expect(host.updates).toHaveLength(2)
  })

  it('says before saving that a new server URL needs its own password, and that none is saved after', async () => {
    const host = fakeHost({ remoteUrl: 'http://10.0.0.5:4096', remotePasswordSaved: true })
    renderDialog()
    const field = await screen.findByTestId('remote-password')
    expect(field).toHaveAttribute('placeholder', expect.stringMatching(/keep the saved one/))
    expect(screen.queryByTestId('password-rebind')).toBeNull()

    await userEvent.clear(screen.getByTestId('remote-url'))
    await userEvent.type(screen.getByTestId('remote-url'), 'https://other.example')
    expect(screen.getByTestId('password-rebind')).toHaveTextContent(
      'The saved password is only for http://10.0.0.5:4096; it will not be sent to another server. Enter the password for the new server',
    )
    expect(field).toHaveAttribute('placeholder', expect.stringMatching(/none saved for this server/))
    // Typing one answers it.
    await userEvent.type(field, 'x')
    expect(screen.queryByTestId('password-rebind')).toBeNull()
    await userEvent.clear(field)

    await userEvent.click(screen.getByTestId('server-save'))
    await waitFor(() => expect(host.current().remotePasswordSaved).toBe(false))
    expect(host.updates[0]).not.toHaveProperty('remotePassword')
    await waitFor(() => expect(screen.queryByTestId('password-rebind')).toBeNull())
    expect(field).toHaveAttribute('placeholder', expect.stringMatching(/none saved for this server/))
  })

  it('refuses a password typed with no server URL', async () => {
    const host = fakeHost()
    renderDialog()
    await userEvent.type(await screen.findByTestId('remote-password'), 'pw')
    await userEvent.click(screen.getByTestId('server-save'))
    expect(await screen.findByTestId('server-error')).toHaveTextContent('A password needs the server URL')
    expect(host.updates).toHaveLength(0)
  })
})

describe('settings logic', () => {
  it('checks new folders without the disk', () => {
    expect(checkNewFolder('  ', [], '/p')).toMatchObject({ ok: false })
    expect(checkNewFolder('/p/', [], '/p')).toMatchObject({ ok: false, error: /always checkpointed/ })
    expect(checkNewFolder('/a/', [{ path: '/a', shared: false }], '/p')).toMatchObject({ ok: false, error: /already/ })
    expect(checkNewFolder('C:\\data\\', [], '/p')).toEqual({ ok: true, path: 'C:\\data' })
  })

  it('parses excludes and builds the server patch', () => {
    expect(parseExcludes(' a \r\n\n#c\n!b')).toEqual(['a', '!b'])
    expect(serverPatch({ remoteUrl: ' ', password: '', configPath: '', useUserHome: false })).toEqual({
      ok: true,
      patch: { remoteUrl: null, opencodeConfigPath: null, useUserOpencodeHome: false },
    })
    expect(serverPatch({ remoteUrl: 'not a url', password: '', configPath: '', useUserHome: false })).toMatchObject({ ok: false })
    expect(serverPatch({ remoteUrl: '', password: '', configPath: 'rel.json', useUserHome: false })).toMatchObject({ ok: false })
  })
})
