import './cmdk-env'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { ChatView } from '../../../src/features/chat/ChatView'
import { draftKey, useDraftsStore } from '../../../src/features/chat/drafts-store'
import { NOTICE_ERROR_MS } from '../../../src/features/chat/use-composer-commands'
import { useSessionErrors } from '../../../src/features/sessions/session-errors-store'
import { apiError, assistant, localProviders, SID, session, user } from './fixtures'

const providers = localProviders({
  echo: { name: 'Echo', capabilities: { reasoning: false, toolcall: true, input: { image: true, pdf: false } } },
  thinker: { name: 'Thinker', capabilities: { reasoning: true, toolcall: true, input: {} } },
})

function fakeOpencode(opts: { promptStatus: number; messages?: unknown[] }) {
  const prompts: unknown[] = []
  const fetchMock = vi.fn(async (input: Request) => {
    const url = new URL(input.url)
    const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { 'content-type': 'application/json' } })
    const p = url.pathname.replace(/^\/opencode/, '')
    if (p === '/session') return json([session(SID, 1, { title: 'Chat' })])
    if (p === '/session/status') return json({})
    if (p === `/session/${SID}/message`) return json(opts.messages ?? [])
    if (p === '/config/providers') return json(providers)
    if (p === '/config') return json({ model: 'local/echo' })
    if (p === '/agent')
      return json([
        { name: 'build', mode: 'primary', permission: [], options: {} },
        { name: 'plan', mode: 'primary', permission: [], options: {} },
        { name: 'general', mode: 'subagent', permission: [], options: {} },
      ])
    if (p === `/session/${SID}/prompt_async`) {
      prompts.push(await input.json())
      // 0: the connection fails (the server is gone), as fetch does then.
      if (opts.promptStatus === 0) throw new TypeError('Failed to fetch')
      return opts.promptStatus === 204 ? new Response(null, { status: 204 }) : json({ name: 'UnknownError', data: { message: 'boom' } }, opts.promptStatus)
    }
    return new Response('nope', { status: 404 })
  })
  return { fetchMock, prompts }
}

afterEach(() => vi.unstubAllGlobals())

function renderChat(opts: { promptStatus: number; messages?: unknown[] }) {
  const api = fakeOpencode(opts)
  vi.stubGlobal('fetch', api.fetchMock)
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
        <ChatView sessionID={SID} onSelect={() => {}} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return api
}

describe('ChatView', () => {
  it('fills the pickers from the server, marks the server default, and sends the chosen model and agent', async () => {
    const { prompts } = renderChat({ promptStatus: 204 })
    const picker = await screen.findByTestId('model-picker')
    await waitFor(() => expect(picker).toHaveAttribute('data-model', 'local/echo'))
    expect(picker).toHaveAccessibleName('Model Echo (default) Local')
    await waitFor(() => expect(screen.getAllByRole('option', { name: 'plan' })).toHaveLength(1))
    expect(screen.queryByRole('option', { name: 'general' })).toBeNull() // subagents are not offered

    // Default model: nothing is sent, the server applies its own default.
    await userEvent.type(screen.getByTestId('composer'), 'first{Enter}')
    await waitFor(() => expect(prompts).toHaveLength(1))
    // The message id is Retake's own, so the sent message can be recognised once it is stored.
    expect(prompts[0]).toEqual({ messageID: expect.stringMatching(/^msg_[0-9a-f]{12}[A-Za-z0-9]{14}$/), parts: [{ type: 'text', text: 'first' }] })
    expect(screen.getByTestId('composer')).toHaveValue('')

    // The model palette: type part of the name, Enter.
    await userEvent.click(picker)
    await userEvent.keyboard('think{Enter}')
    expect(picker).toHaveAttribute('data-model', 'local/thinker')
    await userEvent.selectOptions(screen.getByTestId('agent-picker'), 'plan')
    await userEvent.type(screen.getByTestId('composer'), 'second{Enter}')
    await waitFor(() => expect(prompts).toHaveLength(2))
    expect(prompts[1]).toEqual({ messageID: expect.any(String), parts: [{ type: 'text', text: 'second' }], model: { providerID: 'local', modelID: 'thinker' }, agent: 'plan' })
    expect((prompts[1] as { messageID: string }).messageID > (prompts[0] as { messageID: string }).messageID).toBe(true)
  })

  it('keeps the draft and shows the error when sending fails', async () => {
    renderChat({ promptStatus: 500 })
    await userEvent.type(await screen.findByTestId('composer'), 'do not lose me{Enter}')
    expect(await screen.findByTestId('composer-error')).toHaveTextContent('The server failed (HTTP 500): boom — your message is kept.')
    expect(screen.getByTestId('composer-error')).not.toHaveTextContent('session.promptAsync')
    expect(screen.getByTestId('composer')).toHaveValue('do not lose me')
    expect(useDraftsStore.getState().drafts[draftKey('/p', SID)]).toBe('do not lose me')
  })

  it('says in words that the server is not answering, and that the message is kept', async () => {
    useDraftsStore.setState({ drafts: {} })
    renderChat({ promptStatus: 0 })
    await userEvent.type(await screen.findByTestId('composer'), 'still here{Enter}')
    expect(await screen.findByTestId('composer-error')).toHaveTextContent(/^The server is not answering — your message is kept\.$/)
    expect(screen.getByTestId('composer')).toHaveValue('still here')
  })

  it('shows a session error in the banner only when the timeline does not show it', async () => {
    const err = apiError('Injected failure FAIL400', 400)
    useSessionErrors.setState({ errors: { [SID]: err } })
    renderChat({ promptStatus: 204, messages: [user('msg_1'), assistant('msg_2', 'msg_1', { error: err })] })
    await screen.findByTestId('timeline')
    // An absence: the banner waits 1 s for the failed message (use-settled), so only after that can
    // its not showing be seen. The clock is moved past that second, not waited for.
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      await act(() => vi.advanceTimersByTimeAsync(1100))
      expect(screen.queryByTestId('session-error')).toBeNull()

      act(() => useSessionErrors.setState({ errors: { [SID]: { name: 'UnknownError', data: { message: 'Model not found: local/nope.' } } } }))
      await act(() => vi.advanceTimersByTimeAsync(1100))
      expect(await screen.findByTestId('session-error')).toHaveTextContent('Model not found: local/nope.')
    } finally {
      vi.useRealTimers()
    }
  })

  it('a command’s notice stands in the flow above the box (covering nothing) and leaves on its own', async () => {
    useDraftsStore.getState().setDraft(draftKey('/p', SID), '')
    renderChat({ promptStatus: 204 })
    await userEvent.type(await screen.findByTestId('composer'), '/frobnicate')
    // The notice's own timer must be a fake one: the clock goes fake before Enter.
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).keyboard('{Enter}')
      const notice = await screen.findByTestId('slash-notice')
      expect(notice).toHaveTextContent('Unknown command /frobnicate')
      // Not inside the box with the popup (which floats over the timeline): before it, in the form.
      expect(notice.closest('.composer-box')).toBeNull()
      expect(screen.getByTestId('composer')).toHaveValue('/frobnicate')
      await act(() => vi.advanceTimersByTimeAsync(NOTICE_ERROR_MS + 100))
      expect(screen.queryByTestId('slash-notice')).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })
})
