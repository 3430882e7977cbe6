/**
 * The timeline asks for its width once, not once per row: the virtualizer sizes every row each time
 * one is measured, and a clientWidth read per row forced a layout per row (the long tasks of a fast
 * scroll up through 2,000 rows in bench:ui).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { render } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { ScopeProvider } from '../../../src/api/scope'
import { Timeline } from '../../../src/features/chat/Timeline'
import { SID, user } from './fixtures'

afterEach(() => vi.restoreAllMocks())

describe('Timeline layout reads', () => {
  it('reads the width a handful of times for 2,000 rows, not per row', () => {
    const reads = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000)
    const messages = Array.from({ length: 2000 }, (_, i) => user(`msg_${String(i).padStart(5, '0')}`, `line ${i}\n\nmore`))
    const qc = new QueryClient()
    const view = (list: typeof messages) => (
      <QueryClientProvider client={qc}>
        <ScopeProvider scope={{ connection: 'c', directory: '/p' }}>
          <Timeline sessionID={SID} messages={list} />
        </ScopeProvider>
      </QueryClientProvider>
    )
    const { rerender } = render(view(messages))
    // An older page put in front: every row's place is computed again.
    rerender(view([user('msg_older', 'older'), ...messages]))
    rerender(view([user('msg_oldest', 'oldest'), user('msg_older', 'older'), ...messages]))
    expect(reads.mock.calls.length).toBeGreaterThan(0)
    expect(reads.mock.calls.length).toBeLessThan(20)
  })
})
