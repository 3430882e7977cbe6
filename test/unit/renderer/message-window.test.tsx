// "Fast at any length": a session opens with its newest messages only; older ones come as asked for,
// and what the event stream changed meanwhile is not lost.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, renderHook, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ScopeProvider } from '../../../src/api/scope'
import { useMessages } from '../../../src/api/queries'
import { FIRST_PAGE, mergeWindow, useOlderMessages } from '../../../src/api/message-window'
import { queryKeys } from '../../../src/api/query-keys'
import type { MessageWithParts } from '../../../src/api/types'
import { SID, user } from './fixtures'

const ALL = Array.from({ length: 200 }, (_, i) => user(`msg_${String(i).padStart(4, '0')}`, `m${i}`))

function serve() {
  const limits: Array<number | null> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url)
      const limit = url.searchParams.get('limit')
      limits.push(limit === null ? null : Number(limit))
      // opencode's `limit`: the last N messages, oldest first.
      const list = limit === null ? ALL : ALL.slice(-Number(limit))
      return new Response(JSON.stringify(list), { status: 200, headers: { 'content-type': 'application/json' } })
    }),
  )
  return limits
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
    expect(hook.result.current.messages.data!.at(-1)!.info.id).toBe('msg_0199')
    expect(hook.result.current.older.hasOlder).toBe(true)
    act(() => hook.result.current.older.loadOlder())
    await waitFor(() => expect(hook.result.current.messages.data).toHaveLength(160))
    act(() => hook.result.current.older.loadOlder())
    await waitFor(() => expect(hook.result.current.messages.data).toHaveLength(200))
    expect(hook.result.current.older.hasOlder).toBe(false)
    expect(limits).toEqual([FIRST_PAGE, FIRST_PAGE * 4, FIRST_PAGE * 16])
  })

  it('a refetch (reconnect, after a retake) keeps the window the reader has', async () => {
    const { limits, qc, scope, hook } = setup()
    await waitFor(() => expect(hook.result.current.messages.data).toHaveLength(FIRST_PAGE))
    act(() => hook.result.current.older.loadOlder())
    await waitFor(() => expect(hook.result.current.messages.data).toHaveLength(160))
    await act(() => qc.invalidateQueries({ queryKey: queryKeys.messages(scope, SID) }))
    expect(limits.at(-1)).toBe(160)
    expect(hook.result.current.messages.data).toHaveLength(160)
  })

  it('merging keeps what the event stream patched or added while the older page was on its way', () => {
    const fetched = ALL.slice(-3)
    const patched = { ...ALL[199]!, parts: [] } as MessageWithParts
    const added = user('msg_0200', 'new')
    const merged = mergeWindow(fetched, [patched, added])
    expect(merged.map((m) => m.info.id)).toEqual(['msg_0197', 'msg_0198', 'msg_0199', 'msg_0200'])
    expect(merged[2]).toBe(patched)
  })
})
