/**
 * The project's sessions, newest first and grouped by day: search by title, switch, start a new
 * conversation, rename in place, archive, delete after confirming — both undoable for a few
 * seconds (a deleted session is archived first and deleted for real only when the undo lapses, so
 * closing the window meanwhile loses nothing) — and the archived ones, to bring back.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react'
import { useArchiveSession, useDeleteSession, useRenameSession } from '../../api/mutations'
import { useSessions, useStatusMap } from '../../api/queries'
import type { Session } from '../../api/types'
import { errorMessage } from '../../../shared/unwrap'
import { relativeTime } from '../../ui/relative-time'
import { groupSessions } from './session-groups'
import type { SessionMark } from './session-marks'
import { useSessionMarks } from './session-marks-store'
import { ArchiveIcon, PencilIcon, SearchIcon, TrashIcon } from '../../ui/icons'
import { useUndoToast } from '../../ui/undo-toast-store'
import { UndoToast } from '../../ui/UndoToast'

// Shown on request only: its own chunk.
const ArchivedSessions = lazy(() => import('./ArchivedSessions').then((m) => ({ default: m.ArchivedSessions })))

function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000)
    return () => clearInterval(t)
  }, [])
  return now
}

const MARK_LABEL: Record<SessionMark, string> = {
  done: 'Finished while you were away',
  failed: 'A turn failed while you were away',
}

interface ItemActions {
  archive(session: Session): void
  remove(session: Session): void
}

function SessionItem({
  session,
  active,
  busy,
  mark,
  onSelect,
  actions,
}: {
  session: Session
  active: boolean
  busy: boolean
  mark?: SessionMark
  onSelect(): void
  actions: ItemActions
}) {
  const rename = useRenameSession()
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm'>('view')
  const [title, setTitle] = useState(session.title)
  const now = useMinuteClock()
  // Leaving rename mode unmounts the input, which may still fire blur: only the first exit counts.
  const cancelled = useRef(false)
  const commit = () => {
    if (cancelled.current) return
    cancelled.current = true
    const t = title.trim()
    if (t && t !== session.title) rename.mutate({ sessionID: session.id, title: t })
    setMode('view')
  }
  const startRename = () => {
    cancelled.current = false
    setTitle(session.title)
    setMode('rename')
  }

  if (mode === 'rename') {
    return (
      <li className="session-item editing" data-testid="session-item" data-session-id={session.id}>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            commit()
          }}
        >
          <input
            autoFocus
            aria-label="Session title"
            data-testid="session-title-input"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Escape') return
              e.preventDefault() // this Esc cancels the rename, it does not stop a running turn
              cancelled.current = true
              setMode('view')
            }}
            onBlur={commit}
          />
        </form>
      </li>
    )
  }
  return (
    <li className={`session-item${active ? ' active' : ''}`} data-testid="session-item" data-session-id={session.id} aria-current={active ? 'true' : undefined}>
      <button type="button" className="session-select" onClick={onSelect} onDoubleClick={startRename} title={session.title}>
        <span className="session-title">
          {busy && <span className="session-busy" aria-label="working" />}
          {!busy && mark && (
            <span className={`session-mark ${mark}`} data-testid="session-mark" data-mark={mark} role="img" aria-label={MARK_LABEL[mark]} title={MARK_LABEL[mark]} />
          )}
          {session.title || 'Untitled'}
        </span>
        <span className="session-time">{relativeTime(session.time.updated, now)}</span>
      </button>
      {mode === 'confirm' ? (
        <span className="session-confirm">
          <button
            type="button"
            className="button button-danger small"
            data-testid="confirm-delete"
            onClick={() => {
              setMode('view')
              actions.remove(session)
            }}
          >
            Delete
          </button>
          <button type="button" className="button button-secondary small" onClick={() => setMode('view')}>
            Cancel
          </button>
        </span>
      ) : (
        <span className="session-tools">
          <button type="button" className="icon-button" aria-label="Rename session" data-testid="rename-session" onClick={startRename}>
            <PencilIcon />
          </button>
          <button type="button" className="icon-button" aria-label="Archive session" data-testid="archive-session" onClick={() => actions.archive(session)}>
            <ArchiveIcon />
          </button>
          <button type="button" className="icon-button" aria-label="Delete session" data-testid="delete-session" onClick={() => setMode('confirm')}>
            <TrashIcon />
          </button>
        </span>
      )}
      {rename.error && <div className="inline-error">{errorMessage(rename.error)}</div>}
    </li>
  )
}

export function SessionList({ selected, onSelect }: { selected: string | undefined; onSelect(id: string | undefined): void }) {
  const sessions = useSessions()
  const status = useStatusMap()
  const marks = useSessionMarks((s) => s.marks)
  const clearMark = useSessionMarks((s) => s.clear)
  const [query, setQuery] = useState('')
  const now = useMinuteClock()
  const groups = useMemo(() => groupSessions(sessions.data ?? [], now, query), [sessions.data, now, query])
  // Whatever happened in the session on screen is seen, however it got there.
  useEffect(() => {
    if (selected) clearMark(selected)
  }, [selected, marks, clearMark])
  const total = sessions.data?.length ?? 0
  const archive = useArchiveSession()
  const del = useDeleteSession()
  const showUndo = useUndoToast((s) => s.show)
  const [showArchived, setShowArchived] = useState(false)
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
  const error = archive.error ?? del.error
  return (
    <section className="sessions">
      <div className="section-head">
        <h2>Sessions</h2>
        {/* A new conversation is only a blank chat: its first prompt creates the session, so
            empty sessions never pile up in the list. */}
        <button type="button" className="button button-secondary small" data-testid="new-session" onClick={() => onSelect(undefined)}>
          + New
        </button>
      </div>
      {total > 0 && (
        <label className="session-search">
          <SearchIcon />
          <input
            type="search"
            placeholder="Search sessions"
            aria-label="Search sessions"
            data-testid="session-search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && query) {
                e.preventDefault() // clears the search only, never stops a running turn
                e.stopPropagation()
                setQuery('')
              }
            }}
          />
        </label>
      )}
      {sessions.isLoading && <div className="muted pad">Loading sessions…</div>}
      {sessions.error && (
        <div className="inline-error" role="alert">
          {errorMessage(sessions.error)}
        </div>
      )}
      <div className="session-list" data-testid="session-list">
        {groups.map((g) => (
          <section key={g.label} className="session-group" data-testid="session-group" aria-label={g.label}>
            <h3 className="session-group-label">{g.label}</h3>
            <ul>
              {g.sessions.map((s) => (
                <SessionItem
                  key={s.id}
                  session={s}
                  active={s.id === selected}
                  busy={(status.data?.[s.id]?.type ?? 'idle') !== 'idle'}
                  mark={s.id === selected ? undefined : marks[s.id]}
                  onSelect={() => onSelect(s.id)}
                  actions={actions}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
      {total === 0 && !sessions.isLoading && <div className="muted pad">No sessions yet.</div>}
      {error && (
        <div className="inline-error" role="alert">
          {errorMessage(error)}
        </div>
      )}
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
