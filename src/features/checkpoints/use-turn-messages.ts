/**
 * The user messages the Checkpoints panel names its turns by. The chat's message cache holds only
 * the newest window of a long session (src/api/message-window.ts), so an older turn's question is
 * fetched on its own (opencode's one-message read, a few kB) rather than shown as a time. A turn
 * whose message is gone (reverted by a retake) still reads as its time.
 */
import { useQueries } from '@tanstack/react-query'
import { clientFor } from '../../api/client'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import type { MessageWithParts } from '../../api/types'

export function useTurnMessages(sessionID: string, messageIDs: readonly string[], loaded: MessageWithParts[] | undefined): MessageWithParts[] | undefined {
  const scope = useScope()
  const have = new Set(loaded?.map((m) => m.info.id))
  // Only once the window is there: what it lacks is all that is fetched.
  const missing = loaded ? [...new Set(messageIDs)].filter((id) => !have.has(id)) : []
  const fetched = useQueries({
    queries: missing.map((messageID) => ({
      queryKey: [...queryKeys.all(scope), 'turn-question', sessionID, messageID] as const,
      staleTime: Infinity,
      retry: false,
      queryFn: async (): Promise<MessageWithParts | null> => {
        const r = await clientFor(scope.directory).session.message({ sessionID, messageID })
        return (r.data as MessageWithParts | undefined) ?? null
      },
    })),
  })
  if (!loaded) return loaded
  const more = fetched.flatMap((q) => (q.data ? [q.data] : []))
  return more.length ? [...loaded, ...more] : loaded
}
