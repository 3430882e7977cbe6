/**
 * The project's sessions, newest first and grouped by day: search by title and message text, switch, start a new
 * conversation, rename in place, archive, delete after confirming — both undoable for a few
 * seconds (a deleted session is archived first and deleted for real only when the undo lapses, so
 * closing the window meanwhile loses nothing) — and the archived ones, to bring back.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react'
import { useArchiveSession, useDeleteSession } from '../../api/mutations'
import { useSessions, useStatusMap } from '../../api/queries'
import type { Session, StatusMap } from '../../api/types'
import { errorMessage } from '../../../shared/unwrap'
import { groupSessions, matchesQuery, searchSnippet, type SearchText, type SessionGroup } from './session-groups'
import { useMessageSearch } from './use-message-search'
import type { SessionMarks } from './session-marks'
import { useSessionMarks } from './session-marks-store'
import { SearchIcon } from '../../ui/icons'
import { useUndoToast } from '../../ui/undo-toast-store'
import { UndoToast } from '../../ui/UndoToast'
import { useTransferProblem } from './transfer-store'
import { SessionItem, type ItemActions } from './SessionItem'
import { useMinuteClock } from './use-minute-clock'

// Shown on request only: its own chunk.
const ArchivedSessions = lazy(() => import('./ArchivedSessions').then((m) => ({ default: m.ArchivedSessions })))

/** Archive and delete, each undoable from the toast; the session on screen is left first. */
function useSessionActions(selected: string | undefined, onSelect: (id: string | undefined) => void) {
  const archive = useArchiveSession()
  const del = useDeleteSession()
  const showUndo = useUndoToast((s) => s.show)
  const actions: ItemActions = {
    archive(session) {
      if (session.id === selected) onSelect(undefined)
      archive.mutate({ sessionID: session.id, archived: true })
      showUndo({ label: `Archived “${session.title || 'Untitled'}”`, undo: () => archive.mutate({ sessionID: session.id, archived: false }) })
    },
    remove(session) {
      if (session.id === selected) onSelect(undefined)
      archive.mutate({ sessionID: session.id, archived: true })
      showUndo({
        label: `Deleted “${session.title || 'Untitled'}”`,
        undo: () => archive.mutate({ sessionID: session.id, archived: false }),
        commit: () => del.mutate(session),
      })
    },
  }
  return { actions, archive, error: archive.error ?? del.error }
}

export function SessionList({ selected, onSelect }: { selected: string | undefined; onSelect(id: string | undefined): void }) {
  const sessions = useSessions()
  const status = useStatusMap()
  const marks = useSessionMarks((s) => s.marks)
  const clearMark = useSessionMarks((s) => s.clear)
  const [query, setQuery] = useState('')
  const now = useMinuteClock()
  const textOf = useMessageSearch(query, sessions.data)
  const groups = useMemo(() => groupSessions(sessions.data ?? [], now, query, textOf), [sessions.data, now, query, textOf])
  // Whatever happened in the session on screen is seen, however it got there.
  useEffect(() => {
    if (selected) clearMark(selected)
  }, [selected, marks, clearMark])
  const total = sessions.data?.length ?? 0
  const { actions, archive, error } = useSessionActions(selected, onSelect)
  const [showArchived, setShowArchived] = useState(false)
  return (
    <section className="sessions">
      <SessionsHead onNew={() => onSelect(undefined)} />
      {total > 0 && <SessionSearch query={query} onQuery={setQuery} />}
      {sessions.isLoading && <div className="muted pad">Loading sessions…</div>}
      {sessions.error && <ListError error={sessions.error} />}
      <div className="session-list" data-testid="session-list">
        {groups.map((g) => (
          <SessionGroupSection
            key={g.label}
            group={g}
            selected={selected}
            status={status.data}
            marks={marks}
            onSelect={onSelect}
            actions={actions}
            snippet={(s) => snippetFor(s, query, textOf)}
          />
        ))}
      </div>
      {total === 0 && !sessions.isLoading && <div className="muted pad">No sessions yet.</div>}
      {error && <ListError error={error} />}
      <TransferProblem />
      <UndoToast />
      <button type="button" className="text-button archived-toggle" data-testid="archived-toggle" aria-expanded={showArchived} onClick={() => setShowArchived((v) => !v)}>
        {showArchived ? 'Hide archived' : 'Archived'}
      </button>
      {showArchived && (
        <Suspense fallback={null}>
          <ArchivedSessions onBringBack={(sessionID) => archive.mutate({ sessionID, archived: false })} />
        </Suspense>
      )}
      {total > 0 && groups.length === 0 && (
        <div className="muted pad" data-testid="session-search-empty">
          No session matches “{query}”.
        </div>
      )}
    </section>
  )
}

/** Under a session found by its messages (not its title): where the words are. */
function snippetFor(s: Session, query: string, textOf: (id: string) => SearchText | undefined): string | undefined {
  if (!query.trim() || matchesQuery(s.title || 'Untitled', query)) return undefined
  const text = textOf(s.id)
  return text && searchSnippet(text, query)
}

function SessionsHead({ onNew }: { onNew(): void }) {
  return (
    <div className="section-head">
      <h2>Sessions</h2>
      {/* A new conversation is only a blank chat: its first prompt creates the session, so
          empty sessions never pile up in the list. */}
      <button type="button" className="button button-secondary small" data-testid="new-session" onClick={onNew}>
        + New
      </button>
    </div>
  )
}

function SessionSearch({ query, onQuery }: { query: string; onQuery(q: string): void }) {
  return (
    <label className="session-search">
      <SearchIcon />
      <input
        type="search"
        placeholder="Search sessions"
        aria-label="Search sessions"
        data-testid="session-search"
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && query) {
            e.preventDefault() // clears the search only, never stops a running turn
            e.stopPropagation()
            onQuery('')
          }
        }}
      />
    </label>
  )
}

function ListError({ error }: { error: unknown }) {
  return (
    <div className="inline-error" role="alert">
      {errorMessage(error)}
    </div>
  )
}

function SessionGroupSection(p: {
  group: SessionGroup
  selected: string | undefined
  status: StatusMap | undefined
  marks: SessionMarks
  onSelect(id: string): void
  actions: ItemActions
  snippet(session: Session): string | undefined
}) {
  const { group: g, selected } = p
  return (
    <section className="session-group" data-testid="session-group" aria-label={g.label}>
      <h3 className="session-group-label">{g.label}</h3>
      <ul>
        {g.sessions.map((s) => (
          <SessionItem
            key={s.id}
            session={s}
            active={s.id === selected}
            busy={(p.status?.[s.id]?.type ?? 'idle') !== 'idle'}
            mark={s.id === selected ? undefined : p.marks[s.id]}
            onSelect={() => p.onSelect(s.id)}
            actions={p.actions}
            snippet={p.snippet(s)}
          />
        ))}
      </ul>
    </section>
  )
}

/** An export or import that failed, in words, until dismissed. */
function TransferProblem() {
  const { problem, setProblem } = useTransferProblem()
  if (!problem) return null
  return (
    <div className="inline-error pad" role="alert" data-testid="transfer-problem">
      {problem}{' '}
      <button type="button" className="text-button" onClick={() => setProblem(null)}>
        Dismiss
      </button>
    </div>
  )
}
