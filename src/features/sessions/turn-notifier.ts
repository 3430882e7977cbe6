/** Shows the system notification lib/turn-notifications decides on, if the user asked for them. */
import type { QueryClient } from '@tanstack/react-query'
import { turnNotice } from './turn-notifications'
import { useNotifyStore } from './notify-store'
import { useSessionErrors } from './session-errors-store'
import { useUiStore } from '../../ui/ui-store'
import { queryKeys, type Scope } from '../../api/query-keys'
import type { OpencodeEvent, Session } from '../../api/types'

export function notifyTurn(qc: QueryClient, scope: Scope, event: OpencodeEvent): void {
  if (event.type !== 'session.idle' && event.type !== 'session.error') return
  if (!useNotifyStore.getState().enabled) return
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return
  const notice = turnNotice(event, {
    away: document.visibilityState === 'hidden' || !document.hasFocus(),
    failed: (sid) => useSessionErrors.getState().errors[sid] !== undefined,
    titleOf: (sid) => qc.getQueryData<Session[]>(queryKeys.sessions(scope))?.find((s) => s.id === sid)?.title,
  })
  if (!notice) return
  try {
    const n = new Notification(notice.title, { body: notice.body, tag: notice.sessionID })
    n.onclick = () => {
      window.focus()
      useUiStore.getState().selectSession(scope.directory, notice.sessionID)
      n.close()
    }
  } catch {
    // Some browsers only notify from a service worker: the dot in the session list still tells.
  }
}
