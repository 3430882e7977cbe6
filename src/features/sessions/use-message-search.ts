/**
 * The session search's second source: the text of messages already in the cache (sessions opened
 * in this window), and, while a search is typed, the newest page of the most recent sessions not
 * opened yet, fetched once. opencode has no search over messages, and reading every session of a
 * project on each keystroke would not be fast: this reads what is loaded, folded once per change.
 */
import { useEffect, useMemo, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { fetchMessages } from '../../api/message-window'
import { typedText } from '../../api/message-text'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import type { MessageWithParts, Session } from '../../api/types'
import { searchTextOf, type SearchText } from './session-groups'

/** How many of the newest sessions a search loads the first page of, when not loaded already. */
export const SEARCH_PREFETCH = 20

// A session's messages are folded again only when its cached list changes (a new array).
const folded = new WeakMap<MessageWithParts[], SearchText>()
function textOfMessages(list: MessageWithParts[]): SearchText {
  let t = folded.get(list)
  if (!t) {
    t = searchTextOf(list.map(typedText).filter(Boolean))
    folded.set(list, t)
  }
  return t
}

export function useMessageSearch(query: string, sessions: readonly Session[] | undefined): (sessionID: string) => SearchText | undefined {
  const qc = useQueryClient()
  const scope = useScope()
  const searching = query.trim() !== ''
  const [version, setVersion] = useState(0)

  // While searching, a message list that arrives or changes is searched too.
  useEffect(() => {
    if (!searching) return
    const prefix = queryKeys.messages(scope, '').slice(0, -1)
    const isMessages = (key: readonly unknown[]) => prefix.every((k, i) => key[i] === k)
    return qc.getQueryCache().subscribe((e) => {
      if (e.type === 'updated' && e.action.type === 'success' && isMessages(e.query.queryKey)) setVersion((v) => v + 1)
    })
  }, [qc, scope, searching])

  useEffect(() => {
    if (!searching || !sessions) return
    const newest = [...sessions].sort((a, b) => b.time.updated - a.time.updated).slice(0, SEARCH_PREFETCH)
    for (const s of newest) {
      const queryKey = queryKeys.messages(scope, s.id)
      if (qc.getQueryData(queryKey) !== undefined) continue
      void qc.prefetchQuery({ queryKey, queryFn: () => fetchMessages(qc, scope, s.id), staleTime: Infinity })
    }
  }, [qc, scope, searching, sessions])

  return useMemo(() => {
    void version
    if (!searching) return () => undefined
    return (sessionID: string) => {
      const list = qc.getQueryData<MessageWithParts[]>(queryKeys.messages(scope, sessionID))
      return list ? textOfMessages(list) : undefined
    }
  }, [qc, scope, searching, version])
}
