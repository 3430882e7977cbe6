import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { SessionList } from '../../../src/components/SessionList'
import { session } from './fixtures'

/** A fetch double for the opencode proxy: records requests, answers from a small table. */
function fakeOpencode() {
  const sessions = [session('ses_b', Date.now() - 60_000, { title: 'Older' }), session('ses_a', Date.now(), { title: 'Newest' })]
  const requests: string[] = []
  const fetchMock = vi.fn(async (input: Request) => {
    const url = new URL(input.url)
    requests.push(`${input.method} ${url.pathname}`)
    const json = (v: unknown) => new Response(JSON.stringify(v), { status: 200, headers: { 'content-type': 'application/json' } })
    if (input.method === 'GET' && url.pathname === '/opencode/session') return json(sessions)
    if (input.method === 'GET' && url.pathname === '/opencode/session/status') return json({ ses_a: { type: 'busy' } })
    const m = /^\/opencode\/session\/(ses_\w+)$/.exec(url.pathname)
    if (m && input.method === 'PATCH') {
      const body = (await input.json()) as { title: string }
      return json({ ...sessions.find((s) => s.id === m[1])!, title: body.title })
    }
    if (m && input.method === 'DELETE') return json(true)
    return new Response('not found', { status: 404 })
  })
  return { fetchMock, requests }
}

afterEach(() => vi.unstubAllGlobals())

function setup() {
  const api = fakeOpencode()
  vi.stubGlobal('fetch', api.fetchMock)
  const onSelect = vi.fn()
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
        <SessionList selected="ses_a" onSelect={onSelect} />
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return { ...api, onSelect }
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

    const renamed = screen.getAllByTestId('session-item')[0]!
    await userEvent.click(within(renamed).getByTestId('delete-session'))
    expect(requests.some((r) => r.startsWith('DELETE'))).toBe(false)
    await userEvent.click(screen.getByTestId('confirm-delete'))
    await waitFor(() => expect(screen.getAllByTestId('session-item')).toHaveLength(1))
    expect(requests).toContain('DELETE /opencode/session/ses_a')
  })
})
