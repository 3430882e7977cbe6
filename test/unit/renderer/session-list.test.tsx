import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { SessionList } from '../../../src/features/sessions/SessionList'
import { session, user } from './fixtures'
import { useSessionMarks } from '../../../src/features/sessions/session-marks-store'
import { act } from '@testing-library/react'
import { useUndoToast } from '../../../src/ui/undo-toast-store'

/** A fetch double for the opencode proxy: records requests, answers from a small table. */
function fakeOpencode(
  sessions = [session('ses_b', Date.now() - 60_000, { title: 'Older' }), session('ses_a', Date.now(), { title: 'Newest' })],
  messages: Record<string, unknown[]> = {},
) {
  const requests: string[] = []
  const fetchMock = vi.fn(async (input: Request) => {
    const url = new URL(input.url)
    requests.push(`${input.method} ${url.pathname}`)
    const json = (v: unknown) => new Response(JSON.stringify(v), { status: 200, headers: { 'content-type': 'application/json' } })
    if (input.method === 'GET' && url.pathname === '/opencode/session') return json(sessions)
    if (input.method === 'GET' && url.pathname === '/opencode/session/status') return json({ ses_a: { type: 'busy' } })
    const listed = /^\/opencode\/session\/(ses_\w+)\/message$/.exec(url.pathname)
    if (listed && input.method === 'GET') return json(messages[listed[1]!] ?? [])
    const m = /^\/opencode\/session\/(ses_\w+)$/.exec(url.pathname)
    if (m && input.method === 'PATCH') {
      // Stateful, as the server is: a rename or an archive stays for the next list.
      const body = (await input.json()) as { title?: string; time?: { archived?: number } }
      const i = sessions.findIndex((s) => s.id === m[1])
      const cur = sessions[i]!
      sessions[i] = { ...cur, ...(body.title !== undefined ? { title: body.title } : {}), time: { ...cur.time, ...(body.time ?? {}) } }
      return json(sessions[i])
    }
    if (m && input.method === 'DELETE') return json(true)
    return new Response('not found', { status: 404 })
  })
  return { fetchMock, requests }
}

afterEach(() => {
  vi.unstubAllGlobals()
  useUndoToast.setState({ current: null })
  useSessionMarks.setState({ marks: {} })
})

function setup(sessions?: Parameters<typeof fakeOpencode>[0], messages?: Parameters<typeof fakeOpencode>[1]) {
  const api = fakeOpencode(sessions, messages)
  vi.stubGlobal('fetch', api.fetchMock)
  const onSelect = vi.fn()
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const ui = (selected: string) => (
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
        <SessionList selected={selected} onSelect={onSelect} />
      </ScopeProvider>
    </QueryClientProvider>
  )
  const view = render(ui('ses_a'))
  return { ...api, onSelect, select: (id: string) => view.rerender(ui(id)) }
}

describe('SessionList', () => {
  it('lists sessions newest first with relative times, marks the selected and busy ones, and switches', async () => {
    const { onSelect } = setup()
    const items = await screen.findAllByTestId('session-item')
    expect(items.map((i) => i.getAttribute('data-session-id'))).toEqual(['ses_a', 'ses_b'])
    expect(items[0]).toHaveAttribute('aria-current', 'true')
    expect(items[0]).toHaveTextContent('just now')
    expect(items[1]).toHaveTextContent('1 min ago')
    await waitFor(() => expect(within(items[0]!).getByLabelText('working')).toBeInTheDocument())
    await userEvent.click(within(items[1]!).getByText('Older'))
    expect(onSelect).toHaveBeenCalledWith('ses_b')
  })

  it('renames in place (Enter saves once) and deletes only after confirming', async () => {
    const { requests } = setup()
    const first = (await screen.findAllByTestId('session-item'))[0]!
    await userEvent.click(within(first).getByTestId('rename-session'))
    const input = screen.getByTestId('session-title-input')
    await userEvent.clear(input)
    await userEvent.type(input, 'Renamed{Enter}')
    await screen.findByText('Renamed')
    expect(requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(1)

    // Delete: confirmed, it leaves the list at once but is only archived while Undo is offered.
    const renamed = screen.getAllByTestId('session-item')[0]!
    await userEvent.click(within(renamed).getByTestId('delete-session'))
    expect(requests.some((r) => r.startsWith('DELETE'))).toBe(false)
    await userEvent.click(screen.getByTestId('confirm-delete'))
    await waitFor(() => expect(screen.getAllByTestId('session-item')).toHaveLength(1))
    expect(screen.getByTestId('undo-toast')).toHaveTextContent('Deleted “Renamed”')
    expect(requests.some((r) => r.startsWith('DELETE'))).toBe(false)
    await userEvent.click(screen.getByTestId('undo-toast-undo'))
    await waitFor(() => expect(screen.getAllByTestId('session-item')).toHaveLength(2))
    expect(requests.some((r) => r.startsWith('DELETE'))).toBe(false)

    // Again, and this time the undo lapses: the session is deleted for real.
    await userEvent.click(within(screen.getAllByTestId('session-item')[0]!).getByTestId('delete-session'))
    await userEvent.click(screen.getByTestId('confirm-delete'))
    await waitFor(() => expect(screen.getAllByTestId('session-item')).toHaveLength(1))
    act(() => useUndoToast.getState().expire(useUndoToast.getState().current!.id))
    await waitFor(() => expect(requests).toContain('DELETE /opencode/session/ses_a'))
    expect(screen.queryByTestId('undo-toast')).toBeNull()
  })

  it('archives with undo, and brings an archived session back from the archived list', async () => {
    const { requests } = setup()
    const first = (await screen.findAllByTestId('session-item'))[0]!
    await userEvent.click(within(first).getByTestId('archive-session'))
    await waitFor(() => expect(screen.getAllByTestId('session-item')).toHaveLength(1))
    expect(screen.getByTestId('undo-toast')).toHaveTextContent('Archived “Newest”')
    act(() => useUndoToast.getState().expire(useUndoToast.getState().current!.id))
    await userEvent.click(screen.getByTestId('archived-toggle'))
    const item = await screen.findByTestId('archived-item')
    expect(item).toHaveTextContent('Newest')
    await userEvent.click(within(item).getByTestId('unarchive-session'))
    await waitFor(() => expect(screen.getAllByTestId('session-item')).toHaveLength(2))
    expect(requests.some((r) => r.startsWith('DELETE'))).toBe(false)
  })

  it('shows what finished or failed in sessions off screen until the user opens them', async () => {
    const { onSelect, select } = setup()
    const items = await screen.findAllByTestId('session-item')
    const ev = (type: string, properties: object) => ({ type, properties }) as never
    act(() => {
      useSessionMarks.getState().apply(ev('session.error', { sessionID: 'ses_b', error: { name: 'APIError', data: { message: 'rate limited' } } }), 'ses_a')
      useSessionMarks.getState().apply(ev('session.idle', { sessionID: 'ses_b' }), 'ses_a')
    })
    const mark = within(items[1]!).getByTestId('session-mark')
    expect(mark).toHaveAttribute('data-mark', 'failed')
    expect(mark).toHaveAccessibleName('A turn failed while you were away')
    expect(within(items[0]!).queryByTestId('session-mark')).toBeNull() // the selected one never shows one
    await userEvent.click(within(items[1]!).getByText('Older'))
    expect(onSelect).toHaveBeenCalledWith('ses_b')
    select('ses_b') // the app shows it
    expect(within(screen.getAllByTestId('session-item')[1]!).queryByTestId('session-mark')).toBeNull()
    select('ses_a') // and leaving it again does not bring the old news back
    expect(screen.queryByTestId('session-mark')).toBeNull()
  })

  it('groups sessions by day, searches titles as you type, and draws its icons (no font glyphs)', async () => {
    const day = 86_400_000
    setup([
      session('ses_a', Date.now(), { title: 'Fix the login bug' }),
      session('ses_y', Date.now() - day - 1_000, { title: 'Refactor the parser' }),
      session('ses_o', Date.now() - 40 * day, { title: 'Login page styles' }),
    ])
    const groups = await screen.findAllByTestId('session-group')
    expect(groups.map((g) => g.getAttribute('aria-label')).slice(0, 2)).toEqual(['Today', 'Yesterday'])
    expect(groups).toHaveLength(3)
    expect(
      within(groups[0]!)
        .getAllByTestId('session-item')
        .map((i) => i.getAttribute('data-session-id')),
    ).toEqual(['ses_a'])

    const search = screen.getByTestId('session-search')
    await userEvent.type(search, 'LOGIN')
    expect(screen.getAllByTestId('session-item').map((i) => i.getAttribute('data-session-id'))).toEqual(['ses_a', 'ses_o'])
    await userEvent.type(search, ' styles')
    expect(screen.getAllByTestId('session-item').map((i) => i.getAttribute('data-session-id'))).toEqual(['ses_o'])
    await userEvent.type(search, 'zzz')
    expect(screen.queryAllByTestId('session-item')).toHaveLength(0)
    expect(screen.getByTestId('session-search-empty')).toHaveTextContent('No session matches')
    await userEvent.type(search, '{Escape}')
    expect(screen.getAllByTestId('session-item')).toHaveLength(3)

    const del = within(screen.getAllByTestId('session-item')[0]!).getByTestId('delete-session')
    expect(del.querySelector('svg')).not.toBeNull()
    expect(del.textContent).toBe('')
  })

  it('search also finds words inside the sessions’ messages, and shows where', async () => {
    const sessions = [session('ses_a', Date.now(), { title: 'Fix the login bug' }), session('ses_y', Date.now() - 5_000, { title: 'Refactor the parser' })]
    const say = (sid: string, id: string, text: string) => ({ ...user(id, text), info: { ...user(id, text).info, sessionID: sid } })
    setup(sessions, {
      ses_a: [say('ses_a', 'msg_1', 'the login form loses focus')],
      ses_y: [say('ses_y', 'msg_2', 'Why does the tokenizer overflow on long Unicode identifiers?')],
    })
    await screen.findAllByTestId('session-item')
    await userEvent.type(screen.getByRole('searchbox'), 'tokenizer overflow')
    await waitFor(() => expect(screen.getAllByTestId('session-item').map((i) => i.getAttribute('data-session-id'))).toEqual(['ses_y']))
    expect(within(screen.getByTestId('session-item')).getByTestId('session-snippet')).toHaveTextContent('tokenizer overflow on long Unicode')
    // A title match needs no snippet; a word found in neither leaves nothing.
    await userEvent.clear(screen.getByRole('searchbox'))
    await userEvent.type(screen.getByRole('searchbox'), 'login')
    expect(screen.getAllByTestId('session-item').map((i) => i.getAttribute('data-session-id'))).toEqual(['ses_a'])
    expect(screen.queryByTestId('session-snippet')).toBeNull()
    await userEvent.type(screen.getByRole('searchbox'), ' zebra')
    expect(screen.queryAllByTestId('session-item')).toHaveLength(0)
  })

  it('+ New starts a blank conversation without creating a session on the server', async () => {
    const { onSelect, requests } = setup()
    await screen.findAllByTestId('session-item')
    await userEvent.click(screen.getByTestId('new-session'))
    expect(onSelect).toHaveBeenCalledWith(undefined)
    expect(requests.filter((r) => r.startsWith('POST'))).toEqual([])
  })
})
