/** One row of the session list: select, rename in place, archive, delete after confirming. */
import { useRef, useState } from 'react'
import { errorMessage } from '../../../shared/unwrap'
import { useRenameSession } from '../../api/mutations'
import type { Session } from '../../api/types'
import { ArchiveIcon, PencilIcon, TrashIcon } from '../../ui/icons'
import { relativeTime } from '../../ui/relative-time'
import type { SessionMark } from './session-marks'
import { useMinuteClock } from './use-minute-clock'

const MARK_LABEL: Record<SessionMark, string> = {
  done: 'Finished while you were away',
  failed: 'A turn failed while you were away',
}

export interface ItemActions {
  archive(session: Session): void
  remove(session: Session): void
}

/** The row's mode (plain, renaming, confirming a delete) and the rename's draft title. */
function useItemMode(session: Session) {
  const rename = useRenameSession()
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm'>('view')
  const [title, setTitle] = useState(session.title)
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
  const cancelRename = () => {
    cancelled.current = true
    setMode('view')
  }
  return { rename, mode, setMode, title, setTitle, commit, startRename, cancelRename }
}

type ItemMode = ReturnType<typeof useItemMode>

export function SessionItem({
  session,
  active,
  busy,
  mark,
  onSelect,
  actions,
  snippet,
}: {
  session: Session
  active: boolean
  busy: boolean
  mark?: SessionMark
  onSelect(): void
  actions: ItemActions
  /** While searching, the words found in its messages (when the title does not have them). */
  snippet?: string
}) {
  const item = useItemMode(session)
  const now = useMinuteClock()

  if (item.mode === 'rename') return <RenameRow session={session} item={item} />
  return (
    <li className={`session-item${active ? ' active' : ''}`} data-testid="session-item" data-session-id={session.id} aria-current={active ? 'true' : undefined}>
      <button type="button" className="session-select" onClick={onSelect} onDoubleClick={item.startRename} title={session.title}>
        <span className="session-title">
          {busy && <span className="session-busy" aria-label="working" />}
          {!busy && mark && (
            <span className={`session-mark ${mark}`} data-testid="session-mark" data-mark={mark} role="img" aria-label={MARK_LABEL[mark]} title={MARK_LABEL[mark]} />
          )}
          {session.title || 'Untitled'}
        </span>
        <span className="session-time">{relativeTime(session.time.updated, now)}</span>
        {snippet && (
          <span className="session-snippet muted" data-testid="session-snippet">
            {snippet}
          </span>
        )}
      </button>
      {item.mode === 'confirm' ? (
        <DeleteConfirm
          onDelete={() => {
            item.setMode('view')
            actions.remove(session)
          }}
          onCancel={() => item.setMode('view')}
        />
      ) : (
        <ItemTools onRename={item.startRename} onArchive={() => actions.archive(session)} onDelete={() => item.setMode('confirm')} />
      )}
      {item.rename.error && <div className="inline-error">{errorMessage(item.rename.error)}</div>}
    </li>
  )
}

function RenameRow({ session, item }: { session: Session; item: ItemMode }) {
  return (
    <li className="session-item editing" data-testid="session-item" data-session-id={session.id}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          item.commit()
        }}
      >
        <input
          autoFocus
          aria-label="Session title"
          data-testid="session-title-input"
          value={item.title}
          onChange={(e) => item.setTitle(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return
            e.preventDefault() // this Esc cancels the rename, it does not stop a running turn
            item.cancelRename()
          }}
          onBlur={item.commit}
        />
      </form>
    </li>
  )
}

function DeleteConfirm({ onDelete, onCancel }: { onDelete(): void; onCancel(): void }) {
  return (
    <span className="session-confirm">
      <button type="button" className="button button-danger small" data-testid="confirm-delete" onClick={onDelete}>
        Delete
      </button>
      <button type="button" className="button button-secondary small" onClick={onCancel}>
        Cancel
      </button>
    </span>
  )
}

function ItemTools({ onRename, onArchive, onDelete }: { onRename(): void; onArchive(): void; onDelete(): void }) {
  return (
    <span className="session-tools">
      <button type="button" className="icon-button" aria-label="Rename session" data-testid="rename-session" onClick={onRename}>
        <PencilIcon />
      </button>
      <button type="button" className="icon-button" aria-label="Archive session" data-testid="archive-session" onClick={onArchive}>
        <ArchiveIcon />
      </button>
      <button type="button" className="icon-button" aria-label="Delete session" data-testid="delete-session" onClick={onDelete}>
        <TrashIcon />
      </button>
    </span>
  )
}
