import { afterEach, describe, expect, it, vi } from 'vitest'
import { render, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { useEventStream } from '../../../src/app/use-event-stream'
import { queryKeys, type Scope } from '../../../src/api/query-keys'
import type { MessageWithParts, TextPart } from '../../../src/api/types'
import { useSessionErrors } from '../../../src/features/sessions/session-errors-store'
import { useUiStore } from '../../../src/ui/ui-store'
import { assistant, SID, user } from './fixtures'

class FakeEventSource {
  static all: FakeEventSource[] = []
  readyState = 0
  onopen: (() => void) | null = null
  onmessage: ((e: { data: string }) => void) | null = null
  onerror: (() => void) | null = null
  constructor(readonly url: string) {
    FakeEventSource.all.push(this)
  }
  close() {
    this.readyState = 2
  }
  emit(type: string, properties: object) {
    this.onmessage?.({ data: JSON.stringify({ type, properties }) })
  }
}

afterEach(() => {
  vi.unstubAllGlobals()
  FakeEventSource.all = []
})

const scope: Scope = { connection: 'c1', directory: '/p' }

function Probe({ fetchMessages }: { fetchMessages: () => Promise<MessageWithParts[]> }) {
  useQuery({ queryKey: queryKeys.messages(scope, SID), queryFn: fetchMessages, staleTime: Infinity })
  useEventStream(scope, SID)
  return null
}

describe('useEventStream', () => {
  it('applies events to the cache without refetching, and refetches the visible session once after a reconnect', async () => {
    vi.stubGlobal('EventSource', FakeEventSource)
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const start = [user('msg_1'), assistant('msg_2', 'msg_1', { time: { created: 2 } }, [{ id: 'prt_t', sessionID: SID, messageID: 'msg_2', type: 'text', text: 'echo: ' }])]
    const fetchMessages = vi.fn(async () => start)
    render(
      <QueryClientProvider client={qc}>
        <Probe fetchMessages={fetchMessages} />
      </QueryClientProvider>,
    )
    await waitFor(() => expect(qc.getQueryData(queryKeys.messages(scope, SID))).toBeDefined())
    const es = FakeEventSource.all[0]!
    expect(es.url).toContain('/opencode/event?directory=%2Fp')
    es.onopen!()
    expect(useUiStore.getState().stream).toBe('open')

    es.emit('message.part.delta', { sessionID: SID, messageID: 'msg_2', partID: 'prt_t', field: 'text', delta: 'hi' })
    es.emit('session.error', { sessionID: SID, error: { name: 'UnknownError', data: { message: 'x' } } })
    await waitFor(() => {
      const list = qc.getQueryData<MessageWithParts[]>(queryKeys.messages(scope, SID))!
      expect((list[1]!.parts[0] as TextPart).text).toBe('echo: hi')
    })
    expect(useSessionErrors.getState().errors[SID]?.name).toBe('UnknownError')
    expect(fetchMessages).toHaveBeenCalledTimes(1)

    // The connection drops; the browser reconnects by itself and opens again.
    es.onerror!()
    expect(useUiStore.getState().stream).toBe('reconnecting')
    es.onopen!()
    await waitFor(() => expect(fetchMessages).toHaveBeenCalledTimes(2))
  })

  it('refetches the visible session when the host says a silent subscription was dead (retake.resync), on the same connection', async () => {
    vi.stubGlobal('EventSource', FakeEventSource)
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const fetchMessages = vi.fn(async () => [user('msg_1')])
    render(
      <QueryClientProvider client={qc}>
        <Probe fetchMessages={fetchMessages} />
      </QueryClientProvider>,
    )
    await waitFor(() => expect(fetchMessages).toHaveBeenCalledTimes(1))
    const es = FakeEventSource.all[0]!
    es.onopen!()
    es.emit('retake.resync', {})
    await waitFor(() => expect(fetchMessages).toHaveBeenCalledTimes(2))
    expect(FakeEventSource.all).toHaveLength(1)
    expect(useUiStore.getState().stream).toBe('open')
  })
})
