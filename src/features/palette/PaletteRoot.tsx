/** The command palette's first page: the search box and its three kinds of rows (actions, conversations, models). */
import { Command } from 'cmdk'
import type { Session } from '../../api/types'
import { type ModelOption, ModelRow, starShortcut } from '../models'

export interface PaletteAction {
  id: string
  label: string
  run(): void
}

export function PaletteRoot(p: {
  value: string
  onValueChange(value: string): void
  query: string
  onQueryChange(query: string): void
  toggleFavourite(key: string): void
  actions: PaletteAction[]
  sessionRows: Session[]
  /** The open session (undefined: a new conversation). */
  selected: string | undefined
  /** The handler that opens this session (and closes the palette). */
  openSession(id: string): () => void
  modelRows: ModelOption[]
  current: string | undefined
  onChooseModel(option: ModelOption): void
}) {
  return (
    <Command
      className="palette"
      label="Command palette"
      shouldFilter={false}
      loop
      vimBindings={false}
      value={p.value}
      onValueChange={p.onValueChange}
      onKeyDown={p.value.startsWith('all:') ? starShortcut(p.value, p.toggleFavourite) : undefined}
    >
      <Command.Input
        className="palette-input"
        autoFocus
        value={p.query}
        onValueChange={p.onQueryChange}
        placeholder="Type a command, a conversation or a model…"
        aria-label="Search commands, conversations and models"
        data-testid="palette-search"
      />
      <Command.List className="palette-list" label="Commands, conversations and models">
        <Command.Empty className="palette-empty">Nothing matches.</Command.Empty>
        {p.actions.length > 0 && <ActionsGroup actions={p.actions} />}
        {p.sessionRows.length > 0 && <SessionsGroup sessionRows={p.sessionRows} selected={p.selected} openSession={p.openSession} />}
        {p.modelRows.length > 0 && (
          <Command.Group heading="Models" className="palette-group">
            {p.modelRows.map((o) => (
              <ModelRow key={o.key} option={o} section="all" showProvider current={o.key === p.current} onChoose={p.onChooseModel} />
            ))}
          </Command.Group>
        )}
      </Command.List>
      <div className="palette-hint" aria-hidden>
        ↑↓ move · Enter open · Esc close
      </div>
    </Command>
  )
}

function ActionsGroup({ actions }: { actions: PaletteAction[] }) {
  return (
    <Command.Group heading="Actions" className="palette-group">
      {actions.map((a) => (
        <Command.Item key={a.id} value={`action:${a.id}`} className="palette-row" data-testid={`palette-action-${a.id}`} onSelect={a.run}>
          <span className="palette-check" aria-hidden />
          <span className="palette-row-main">{a.label}</span>
        </Command.Item>
      ))}
    </Command.Group>
  )
}

function SessionsGroup({ sessionRows, selected, openSession }: { sessionRows: Session[]; selected: string | undefined; openSession(id: string): () => void }) {
  return (
    <Command.Group heading="Conversations" className="palette-group">
      {sessionRows.map((s) => (
        <Command.Item
          key={s.id}
          value={`session:${s.id}`}
          className="palette-row"
          data-testid="palette-session"
          data-session-id={s.id}
          data-current={s.id === selected || undefined}
          onSelect={openSession(s.id)}
        >
          <span className="palette-check" aria-hidden>
            {s.id === selected ? '✓' : ''}
          </span>
          <span className="palette-row-main">
            <span className="palette-row-name">{s.title || 'Untitled'}</span>
          </span>
        </Command.Item>
      ))}
    </Command.Group>
  )
}
