/**
 * Shown over the window once the browser-mode host that served it has gone (src/bridge/host-presence.ts).
 * Every run has an origin of its own, so this tab cannot follow a new run: it says what happened and
 * what to do, with the command to copy. The workspace stays below it, so unsent text can still be
 * copied out (a new run's tab, on a new origin, does not see this one's drafts).
 */
import { useSyncExternalStore } from 'react'
import { hostPresence, onHostPresence } from '../bridge'
import { useDraftsStore } from '../features/chat/drafts-store'
import { CopyButton } from '../ui/CopyButton'

export const HOST_GONE_TEXT = 'Retake stopped running. Start it again, then open the address it prints.'

export function useHostGone(): boolean {
  return useSyncExternalStore(onHostPresence, () => hostPresence() === 'gone')
}

export function HostGoneNotice({ startCommand }: { startCommand: string | undefined }) {
  const hasDraft = useDraftsStore((s) => Object.values(s.drafts).some((d) => d.trim() !== ''))
  const command = startCommand ?? 'npm run web'
  return (
    <div className="host-gone" role="alert" data-testid="host-gone">
      <div className="host-gone-text">{HOST_GONE_TEXT}</div>
      <div className="host-gone-command">
        <code aria-label="Command that starts Retake">{command}</code>
        <CopyButton text={() => command} label="Copy the command" testId="copy-start-command" />
      </div>
      {hasDraft && <div className="muted">Unsent text is still in this tab: copy it before you close it.</div>}
    </div>
  )
}
