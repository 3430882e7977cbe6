// "Fast at any length": a session opens with its newest messages only; older ones come as asked for,
// and what the event stream changed meanwhile is not lost.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, renderHook, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ScopeProvider } from '../../../src/api/scope'
import { useMessages } from '../../../src/api/queries'
import { FIRST_PAGE, mergeWindow, OLDER_PAGE, prependOlder, useOlderMessages } from '../../../src/api/message-window'
import { queryKeys } from '../../../src/api/query-keys'
import type { MessageWithParts } from '../../../src/api/types'
import { SID, user } from './fixtures'

const ALL = Array.from({ length: FIRST_PAGE + 2 * OLDER_PAGE }, (_, i) => user(`msg_${String(i).padStart(4, '0')}`, `m${i}`))

/** opencode's messages route as 1.18.33 answers it: the last `limit` before the cursor, oldest first, and the next cursor. */
function serve() {
  const limits: Array<number | null> = []
  const cursors: Array<string | null> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url)
      const limit = url.searchParams.get('limit')
      const before = url.searchParams.get('before')
      limits.push(limit === null ? null : Number(limit))
      cursors.push(before)
      const end = before ? ALL.findIndex((m) => m.info.id === before) : ALL.length
      const start = limit === null ? 0 : Math.max(0, end - Number(limit))
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (start > 0) headers['x-next-cursor'] = ALL[start]!.info.id
      return new Response(JSON.stringify(ALL.slice(start, end)), { status: 200, headers })
    }),
  )
  return Object.assign(limits, { cursors })
}

afterEach(() => vi.unstubAllGlobals())

function setup() {
  const limits = serve()
  // Each test its own connection: the window bookkeeping is keyed by it.
  const scope = { connection: `c-${Math.random()}`, directory: '/p' }
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={qc}>
      <ScopeProvider scope={scope}>{children}</ScopeProvider>
    </QueryClientProvider>
  )
  const hook = renderHook(() => ({ messages: useMessages(SID), older: useOlderMessages(SID) }), { wrapper })
  return { limits, qc, scope, hook }
}

describe('message window', () => {
  it('opens with the newest messages, then grows towards the oldest until the session is whole', async () => {
    const { limits, hook } = setup()
    await waitFor(() => expect(hook.result.current.messages.data).toHaveLength(FIRST_PAGE))
    expect(hook.result.current.messages.data!.at(-1)!.info.id).toBe('msg_0439')
    expect(hook.result.current.older.hasOlder).toBe(true)
    await act(() => hook.result.current.older.loadOlder())
    expect(hook.result.current.messages.data).toHaveLength(FIRST_PAGE + OLDER_PAGE)
    // Each older page is asked for by the cursor of the one before, never the window again.
    expect(limits.cursors).toEqual([null, 'msg_0400'])
    await act(() => hook.result.current.older.loadOlder())
    expect(hook.result.current.messages.data).toHaveLength(ALL.length)
    expect(hook.result.current.messages.data!.map((m) => m.info.id)).toEqual(ALL.map((m) => m.info.id))
    expect(hook.result.current.older.hasOlder).toBe(false)
    expect([...limits]).toEqual([FIRST_PAGE, OLDER_PAGE, OLDER_PAGE])
  })

  it('loadAll (Home) fetches every older page, one at a time, until the session is whole', async () => {
    const { limits, hook } = setup()
    await waitFor(() => expect(hook.result.current.messages.data).toHaveLength(FIRST_PAGE))
    await act(() => hook.result.current.older.loadAll())
    expect(hook.result.current.messages.data!.map((m) => m.info.id)).toEqual(ALL.map((m) => m.info.id))
    expect(hook.result.current.older.hasOlder).toBe(false)
    expect(limits.cursors).toEqual([null, 'msg_0400', 'msg_0200'])
  })

  it('an older page puts its messages in front, without repeating one the window has', () => {
    expect(prependOlder(ALL.slice(0, 3), ALL.slice(2, 5)).map((m) => m.info.id)).toEqual(['msg_0000', 'msg_0001', 'msg_0002', 'msg_0003', 'msg_0004'])
  })

  it('a refetch (reconnect, after a retake) keeps the window the reader has', async () => {
    const { limits, qc, scope, hook } = setup()
    await waitFor(() => expect(hook.result.current.messages.data).toHaveLength(FIRST_PAGE))
    await act(() => hook.result.current.older.loadOlder())
    expect(hook.result.current.messages.data).toHaveLength(FIRST_PAGE + OLDER_PAGE)
    await act(() => qc.invalidateQueries({ queryKey: queryKeys.messages(scope, SID) }))
    expect(limits.at(-1)).toBe(FIRST_PAGE + OLDER_PAGE)
    expect(hook.result.current.messages.data).toHaveLength(FIRST_PAGE + OLDER_PAGE)
    // The refetch brought its own cursor: the next page starts where the window does.
    await act(() => hook.result.current.older.loadOlder())
    expect(limits.cursors.at(-1)).toBe('msg_0200')
    expect(hook.result.current.messages.data).toHaveLength(ALL.length)
  })

  it('merging keeps what the event stream patched or added while the older page was on its way', () => {
    const fetched = ALL.slice(-3)
    const patched = { ...ALL.at(-1)!, parts: [] } as MessageWithParts
    const added = user('msg_0440', 'new')
    const merged = mergeWindow(fetched, [patched, added])
    expect(merged.map((m) => m.info.id)).toEqual(['msg_0437', 'msg_0438', 'msg_0439', 'msg_0440'])
    expect(merged[2]).toBe(patched)
  })
})
