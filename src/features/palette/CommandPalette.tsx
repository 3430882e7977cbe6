/**
 * Ctrl/⌘+K: one box to reach a session (open it), a model (make it the open session's model) or an
 * action (new conversation, settings, stop the running turn). Esc closes it and focus goes back.
 * Opened by CommandPaletteKey (its own chunk, with cmdk, fetched on the first Ctrl/⌘+K); it reads
 * the same caches the rest of the window does.
 */
import { Command } from 'cmdk'
import { useMemo, useState } from 'react'
import { useAbort } from '../../api/mutations'
import { useConfigProviders, useServerConfig, useSessions, useStatusMap } from '../../api/queries'
import { useScope } from '../../api/scope'
import { modelKey, modelOptions, resolveModel, serverDefaultModel, type ModelOption } from '../models/model-choice'
import { isBusy } from '../chat/status-line'
import { useModelPrefs } from '../models/model-prefs-store'
import { choiceKey, useModelStore } from '../models/model-store'
import { modelSections } from './model-list'
import { ModelPalette, ModelRow, starShortcut } from './ModelPalette'
import { escapeCloses, useFocusReturn } from './Popover'
import '../../styles/palette.css'

/** Rows per kind while searching: the palette is for reaching things, not for browsing them. */
const SEARCH_LIMIT = 30
const SESSIONS_SHOWN_EMPTY = 8

const matches = (text: string, query: string) => {
  const t = text.toLowerCase()
  return query
    .toLowerCase()
    .split(/\s+/)
    .every((w) => t.includes(w))
}

export interface CommandPaletteProps {
  /** The open session (undefined: a new conversation). */
  selected: string | undefined
  onSelect(sessionID: string | undefined): void
  onOpenSettings(): void
}

export function PaletteDialog({ selected, onSelect, onOpenSettings, onClose }: CommandPaletteProps & { onClose(): void }) {
  useFocusReturn()
  const { directory } = useScope()
  const sessions = useSessions()
  const status = useStatusMap()
  const providers = useConfigProviders()
  const config = useServerConfig()
  const abort = useAbort()
  const prefs = useModelPrefs()
  const ckey = choiceKey(directory, selected)
  const chosen = useModelStore((s) => s.models[ckey])
  const [page, setPage] = useState<'root' | 'models'>('root')
  const [query, setQuery] = useState('')
  const [value, setValue] = useState('')

  const options = useMemo(() => modelOptions(providers.data?.providers ?? []), [providers.data])
  const session = sessions.data?.find((s) => s.id === selected)
  const resolved = resolveModel(chosen, session, serverDefaultModel(config.data?.model, providers.data?.providers ?? [], providers.data?.default ?? {}))
  const current = resolved.ref ? modelKey(resolved.ref) : undefined
  const busy = !!selected && isBusy(status.data?.[selected])

  const run = (f: () => void) => () => {
    onClose()
    f()
  }
  const setModel = (o: ModelOption) => {
    useModelPrefs.getState().markUsed(o.key)
    useModelStore.getState().setModel(ckey, o.ref)
    onClose()
  }

  const q = query.trim()
  const actions = [
    { id: 'new', label: 'New conversation', run: run(() => onSelect(undefined)) },
    { id: 'model', label: 'Change model…', run: () => (setPage('models'), setQuery('')) },
    { id: 'settings', label: 'Open settings', run: run(onOpenSettings) },
    ...(busy ? [{ id: 'stop', label: 'Stop the running turn', run: run(() => abort.mutate(selected!)) }] : []),
  ].filter((a) => matches(a.label, q))
  const sessionRows = (sessions.data ?? []).filter((s) => matches(s.title, q)).slice(0, q ? SEARCH_LIMIT : SESSIONS_SHOWN_EMPTY)
  const modelRows = useMemo(() => {
    const s = modelSections(options, q, prefs)
    // With nothing typed only the user's own models; all of them are one "Change model…" away.
    const list = q ? [...s.favourites, ...s.recent, ...s.groups.flatMap((g) => g.options)] : [...s.favourites, ...s.recent]
    return [...new Map(list.map((o) => [o.key, o])).values()].slice(0, SEARCH_LIMIT)
  }, [options, q, prefs])

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="command-palette" role="dialog" aria-modal="true" aria-label="Command palette" data-testid="command-palette" onKeyDown={escapeCloses(onClose)}>
        {page === 'models' ? (
          <ModelPalette options={options} current={current} currentNote={resolved.source === 'default' ? 'default' : undefined} onChoose={setModel} />
        ) : (
          <Command
            className="palette"
            label="Command palette"
            shouldFilter={false}
            loop
            vimBindings={false}
            value={value}
            onValueChange={setValue}
            onKeyDown={value.startsWith('all:') ? starShortcut(value, prefs.toggleFavourite) : undefined}
          >
            <Command.Input
              className="palette-input"
              autoFocus
              value={query}
              onValueChange={setQuery}
              placeholder="Type a command, a conversation or a model…"
              aria-label="Search commands, conversations and models"
              data-testid="palette-search"
            />
            <Command.List className="palette-list" label="Commands, conversations and models">
              <Command.Empty className="palette-empty">Nothing matches.</Command.Empty>
              {actions.length > 0 && (
                <Command.Group heading="Actions" className="palette-group">
                  {actions.map((a) => (
                    <Command.Item key={a.id} value={`action:${a.id}`} className="palette-row" data-testid={`palette-action-${a.id}`} onSelect={a.run}>
                      <span className="palette-check" aria-hidden />
                      <span className="palette-row-main">{a.label}</span>
                    </Command.Item>
                  ))}
                </Command.Group>
              )}
              {sessionRows.length > 0 && (
                <Command.Group heading="Conversations" className="palette-group">
                  {sessionRows.map((s) => (
                    <Command.Item
                      key={s.id}
                      value={`session:${s.id}`}
                      className="palette-row"
                      data-testid="palette-session"
                      data-session-id={s.id}
                      data-current={s.id === selected || undefined}
                      onSelect={run(() => onSelect(s.id))}
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
              )}
              {modelRows.length > 0 && (
                <Command.Group heading="Models" className="palette-group">
                  {modelRows.map((o) => (
                    <ModelRow key={o.key} option={o} section="all" showProvider current={o.key === current} onChoose={setModel} />
                  ))}
                </Command.Group>
              )}
            </Command.List>
            <div className="palette-hint" aria-hidden>
              ↑↓ move · Enter open · Esc close
            </div>
          </Command>
        )}
      </div>
    </div>
  )
}
