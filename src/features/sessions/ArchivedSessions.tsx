/** The project's archived sessions, each with "Bring back" (opened from the session list). */
import { useArchivedSessions } from '../../api/queries'

export function ArchivedSessions({ onBringBack }: { onBringBack(sessionID: string): void }) {
  const archived = useArchivedSessions(true)
  return (
    <ul className="archived-list" data-testid="archived-list">
      {archived.data?.length === 0 && <li className="muted pad">Nothing archived.</li>}
      {archived.data?.map((s) => (
        <li key={s.id} className="archived-item" data-testid="archived-item" data-session-id={s.id}>
          <span className="session-title">{s.title || 'Untitled'}</span>
          <button type="button" className="text-button" data-testid="unarchive-session" onClick={() => onBringBack(s.id)}>
            Bring back
          </button>
        </li>
      ))}
    </ul>
  )
}
