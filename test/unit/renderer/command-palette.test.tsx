import './cmdk-env'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { CommandPalette } from '../../../src/features/palette/CommandPaletteKey'
import { choiceKey, useModelStore } from '../../../src/features/models/model-store'
import { useModelPrefs } from '../../../src/features/models/model-prefs-store'
import { localProviders, SID, session } from './fixtures'

const OTHER = 'ses_other00000000000000000'
const providers = localProviders({
  echo: { name: 'Echo', capabilities: { toolcall: true, input: {} } },
  thinker: { name: 'Thinker', capabilities: { toolcall: true, input: {} } },
})

function renderPalette(opts: { busy?: boolean } = {}) {
  const aborted: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const json = (v: unknown) => new Response(JSON.stringify(v), { status: 200, headers: { 'content-type': 'application/json' } })
      const p = new URL(input.url).pathname.replace(/^\/opencode/, '')
      if (p === '/session') return json([session(SID, 2, { title: 'Fix the login bug' }), session(OTHER, 1, { title: 'Write release notes' })])
      if (p === '/session/status') return json(opts.busy ? { [SID]: { type: 'busy' } } : {})
      if (p === '/config/providers') return json(providers)
      if (p === '/config') return json({ model: 'local/echo' })
      if (p === `/session/${SID}/abort`) return (aborted.push(SID), json(true))
      return new Response('nope', { status: 404 })
    }),
  )
  const onSelect = vi.fn()
  const onOpenSettings = vi.fn()
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
        <textarea aria-label="Message" />
        <CommandPalette selected={SID} onSelect={onSelect} onOpenSettings={onOpenSettings} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return { onSelect, onOpenSettings, aborted }
}

/** Ctrl+K from the message box, as a user would; waits until the conversations are listed. */
async function openPalette() {
  await userEvent.click(screen.getByRole('textbox', { name: 'Message' }))
  await userEvent.keyboard('{Control>}k{/Control}')
  await screen.findAllByTestId('palette-session')
}

afterEach(() => {
  vi.unstubAllGlobals()
  useModelStore.setState({ models: {}, agents: {} })
  useModelPrefs.setState({ recent: [], favourites: [] })
})

describe('CommandPalette', () => {
  it('Ctrl+K opens it with the search focused; Esc closes it and gives focus back', async () => {
    renderPalette()
    await openPalette()
    expect(screen.getByRole('dialog', { name: 'Command palette' })).toHaveAttribute('aria-modal', 'true')
    expect(screen.getByTestId('palette-search')).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByTestId('command-palette')).toBeNull()
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus()
    // Ctrl+K again toggles it.
    await userEvent.keyboard('{Control>}k{/Control}')
    expect(await screen.findByTestId('command-palette')).toBeInTheDocument()
    await userEvent.keyboard('{Control>}k{/Control}')
    expect(screen.queryByTestId('command-palette')).toBeNull()
  })

  it('opens a conversation found by typing part of its title', async () => {
    const { onSelect } = renderPalette()
    await openPalette()
    await userEvent.keyboard('release')
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1))
    await userEvent.keyboard('{Enter}')
    expect(onSelect).toHaveBeenCalledWith(OTHER)
    expect(screen.queryByTestId('command-palette')).toBeNull()
  })

  it('sets the open session’s model from a search, and lists it first among recent models after', async () => {
    renderPalette()
    await openPalette()
    await userEvent.keyboard('think')
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.getAttribute('data-model'))).toEqual(['local/thinker']))
    await userEvent.keyboard('{Enter}')
    expect(useModelStore.getState().models[choiceKey('/p', SID)]).toEqual({ providerID: 'local', modelID: 'thinker' })
    expect(useModelPrefs.getState().recent).toEqual(['local/thinker'])
  })

  it('"Change model…" opens the full model list', async () => {
    renderPalette()
    await openPalette()
    await userEvent.click(screen.getByTestId('palette-action-model'))
    expect(await screen.findByTestId('model-search')).toHaveFocus()
    await waitFor(() => expect(screen.getByRole('option', { selected: true })).toHaveAccessibleName(/^Echo · Local, default, current/))
    await userEvent.keyboard('{ArrowDown}{Enter}')
    expect(useModelStore.getState().models[choiceKey('/p', SID)]).toEqual({ providerID: 'local', modelID: 'thinker' })
  })

  it('runs the actions: new conversation, settings, and stop only while a turn runs', async () => {
    const { onSelect, onOpenSettings, aborted } = renderPalette({ busy: true })
    await openPalette()
    await userEvent.keyboard('new conv{Enter}')
    expect(onSelect).toHaveBeenCalledWith(undefined)

    await openPalette()
    await userEvent.keyboard('settings{Enter}')
    expect(onOpenSettings).toHaveBeenCalled()

    await openPalette()
    await userEvent.click(await screen.findByTestId('palette-action-stop'))
    await waitFor(() => expect(aborted).toEqual([SID]))
  })

  it('offers no Stop when nothing runs', async () => {
    renderPalette()
    await openPalette()
    expect(screen.getByTestId('palette-action-new')).toBeInTheDocument()
    expect(screen.queryByTestId('palette-action-stop')).toBeNull()
  })
})
