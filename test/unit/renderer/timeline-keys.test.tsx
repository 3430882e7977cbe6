/**
 * Keyboard reading of a long session: Home reaches the first message even when it is not fetched
 * yet (every older page is fetched, one at a time, and the view stays at the top); End comes back
 * to the newest and follows it again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { useMessages } from '../../../src/api/queries'
import { FIRST_PAGE, OLDER_PAGE } from '../../../src/api/message-window'
import { Timeline } from '../../../src/features/chat/Timeline'
import { SID, user } from './fixtures'

const ALL = Array.from({ length: FIRST_PAGE + OLDER_PAGE + 10 }, (_, i) => user(`msg_${String(i).padStart(4, '0')}`, `m${i}`))

/** opencode's messages route: the last `limit` before the cursor, oldest first, with the next cursor. */
function serve() {
  const asked: Array<string | null> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url)
      const before = url.searchParams.get('before')
      asked.push(before)
      const end = before ? ALL.findIndex((m) => m.info.id === before) : ALL.length
      const start = Math.max(0, end - Number(url.searchParams.get('limit') ?? ALL.length))
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (start > 0) headers['x-next-cursor'] = ALL[start]!.info.id
      return new Response(JSON.stringify(ALL.slice(start, end)), { status: 200, headers })
    }),
  )
  return asked
}

function Chat() {
  const messages = useMessages(SID)
  return <Timeline sessionID={SID} messages={messages.data ?? []} />
}

function setup() {
  const asked = serve()
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={{ connection: `c-${Math.random()}`, directory: '/p' }}>
        <Chat />
      </ScopeProvider>
    </QueryClientProvider>,
  )
  return { asked, qc }
}

afterEach(() => vi.unstubAllGlobals())

describe('Timeline keys', () => {
  it('is reachable with Tab, and Home fetches every older page until the session is whole', async () => {
    const { asked } = setup()
    const timeline = await screen.findByTestId('timeline')
    await waitFor(() => expect(timeline.getAttribute('data-has-older')).toBe('true'))
    expect(timeline.tabIndex).toBe(0)
    // (jsdom has no layout: where the view lands is measured by bench:ui in Chromium.)
    fireEvent.keyDown(timeline, { key: 'Home' })
    await waitFor(() => expect(timeline.getAttribute('data-has-older')).toBe('false'))
    // The first page, then each older page by the cursor of the one before: the whole session.
    expect(asked).toEqual([null, ALL[OLDER_PAGE + 10]!.info.id, ALL[10]!.info.id])
    // The view lets go of the bottom: "↓ Latest" is offered, and End takes the reader back.
    fireEvent.click(await screen.findByTestId('jump-to-bottom'))
    expect(screen.queryByTestId('jump-to-bottom')).toBeNull()
    fireEvent.keyDown(timeline, { key: 'Home' })
    expect(await screen.findByTestId('jump-to-bottom')).toBeTruthy()
    fireEvent.keyDown(timeline, { key: 'End' })
    expect(screen.queryByTestId('jump-to-bottom')).toBeNull()
  })

  it('a Home typed into a field inside the timeline is the field’s', async () => {
    const { asked } = setup()
    const timeline = await screen.findByTestId('timeline')
    await waitFor(() => expect(timeline.getAttribute('data-has-older')).toBe('true'))
    const field = document.createElement('textarea')
    timeline.appendChild(field)
    fireEvent.keyDown(field, { key: 'Home' })
    expect(screen.queryByTestId('jump-to-bottom')).toBeNull()
    expect(asked).toEqual([null])
  })
})
