/** The session's recorded turns, newest first, each with its file changes and "Restore back to here". */
import { useState } from 'react'
import type { MessageWithParts } from '../../api/types'
import type { ChangeItem, TurnCheckpoint } from '../../../shared/ipc-contract'
import { pathOf, statusLabel, summarizeChanges, summaryText, turnLabel } from './checkpoint-logic'

const CHANGE_MARK: Record<ChangeItem['change'], string> = {
  added: 'A',
  modified: 'M',
  deleted: 'D',
  mode: 'P',
  type: 'T',
  'not-checkpointed': '!',
}

function FileRow({ item, projectRoot }: { item: ChangeItem; projectRoot: string }) {
  return (
    <li className={`ckpt-file ckpt-${item.change}`} data-testid="turn-file" data-change={item.change}>
      <span className="ckpt-mark" title={item.change}>
        {CHANGE_MARK[item.change]}
      </span>
      <span className="ckpt-path" title={pathOf(item, projectRoot)}>
        {pathOf(item, projectRoot)}
      </span>
      {item.binary ? (
        <span className="ckpt-binary">binary</span>
      ) : item.change === 'not-checkpointed' ? (
        <span className="ckpt-binary" title="Over the size cap or unreadable: never rolled back">
          not checkpointed
        </span>
      ) : (
        <span className="ckpt-lines">
          <span className="ckpt-plus">+{item.added}</span> <span className="ckpt-minus">−{item.removed}</span>
        </span>
      )}
    </li>
  )
}

function TurnItem({ turn, label, projectRoot, disabled, onRestore }: { turn: TurnCheckpoint; label: string; projectRoot: string; disabled: boolean; onRestore(): void }) {
  const [open, setOpen] = useState(false)
  const s = summarizeChanges(turn.changes)
  return (
    <li className={`ckpt-turn ckpt-status-${turn.status}`} data-testid="checkpoint-turn" data-message-id={turn.messageID} data-status={turn.status}>
      <div className="ckpt-turn-head">
        <button type="button" className="ckpt-toggle" data-testid="turn-toggle" aria-expanded={open} disabled={turn.changes.length === 0} onClick={() => setOpen(!open)}>
          <span className="ckpt-caret" aria-hidden>
            {turn.changes.length === 0 ? '·' : open ? '▾' : '▸'}
          </span>
          <span className="ckpt-turn-text" title={label}>
            {label}
          </span>
        </button>
        <span className={`ckpt-badge ckpt-badge-${turn.status}`}>{statusLabel(turn.status)}</span>
      </div>
      <div className="ckpt-turn-meta">
        <span className="muted" data-testid="turn-summary">
          {summaryText(s)}
          {s.plus + s.minus > 0 && (
            <>
              {' '}
              <span className="ckpt-plus">+{s.plus}</span> <span className="ckpt-minus">−{s.minus}</span>
            </>
          )}
          {s.binary > 0 && ` · ${s.binary} binary`}
        </span>
        <button
          type="button"
          className="button button-secondary small"
          data-testid="restore-back"
          disabled={disabled || turn.status === 'open'}
          title={turn.status === 'open' ? 'The turn is still running' : 'Put the files back as they were before this turn (and every later one)'}
          onClick={onRestore}
        >
          Restore back to here
        </button>
      </div>
      {open && (
        <ul className="ckpt-files" data-testid="turn-files">
          {turn.changes.map((c) => (
            <FileRow key={`${c.root}\n${c.path}`} item={c} projectRoot={projectRoot} />
          ))}
        </ul>
      )}
    </li>
  )
}

export function TurnList({
  turns,
  messages,
  projectRoot,
  disabled,
  onRestore,
}: {
  turns: TurnCheckpoint[]
  messages: MessageWithParts[] | undefined
  projectRoot: string
  disabled: boolean
  onRestore(turn: TurnCheckpoint): void
}) {
  // Newest first, like the session list: the turn one usually goes back to is near the top.
  const ordered = [...turns].sort((a, b) => b.createdAt - a.createdAt)
  return (
    <ul className="ckpt-turns" data-testid="checkpoint-turns">
      {ordered.map((t) => (
        <TurnItem key={t.messageID} turn={t} label={turnLabel(t, messages)} projectRoot={projectRoot} disabled={disabled} onRestore={() => onRestore(t)} />
      ))}
    </ul>
  )
}
