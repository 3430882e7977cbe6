/** Opening a long session: the newest page first, older pages put in front behind it, in order. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderHook, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ScopeProvider } from '../../../src/api/scope'
import { useMessages } from '../../../src/api/queries'
import { assistant, user } from './fixtures'

afterEach(() => vi.unstubAllGlobals())

describe('useMessages', () => {
  it('shows the newest page at once and fills in older history page by page with the server’s cursor', async () => {
    const all = Array.from({ length: 5 }, (_, i) => [user(`msg_u${i}`, `q${i}`), assistant(`msg_a${i}`, `msg_u${i}`)]).flat()
    const asked: string[] = []
    let releaseOlder!: () => void
    const older = new Promise<void>((r) => (releaseOlder = r))
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: Request) => {
        const url = new URL(input.url)
        asked.push(url.search)
        const before = url.searchParams.get('before')
        // Pages of 4 from the end; the cursor is the index where the next (older) page ends.
        const end = before ? Number(before) : all.length
        if (before) await older
        const start = Math.max(0, end - 4)
        const headers: Record<string, string> = { 'content-type': 'application/json' }
        if (start > 0) headers['x-next-cursor'] = String(start)
        return new Response(JSON.stringify(all.slice(start, end)), { status: 200, headers })
      }),
    )
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={qc}>
        <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>{children}</ScopeProvider>
      </QueryClientProvider>
    )
    const { result } = renderHook(() => useMessages('ses_1'), { wrapper })
    await waitFor(() => expect(result.current.data?.map((m) => m.info.id)).toEqual(all.slice(6).map((m) => m.info.id)))
    expect(asked[0]).toContain('limit=')
    releaseOlder()
    await waitFor(() => expect(result.current.data?.map((m) => m.info.id)).toEqual(all.map((m) => m.info.id)))
    expect(asked.filter((q) => q.includes('before='))).toHaveLength(2)
  })
})
