/**
 * Ctrl/⌘+K: one box to reach a session (open it), a model (make it the open session's model) or an
 * action (new conversation, settings, stop the running turn). Esc closes it and focus goes back.
 * Opened by CommandPaletteKey (its own chunk, with cmdk, fetched on the first Ctrl/⌘+K); it reads
 * the same caches the rest of the window does.
 */
import { useMemo, useState } from 'react'
import { useAbort } from '../../api/prompt-mutations'
import { useConfigProviders, useServerConfig, useSessions, useStatusMap } from '../../api/queries'
import { useScope } from '../../api/scope'
import type { Session } from '../../api/types'
import {
  modelKey,
  modelOptions,
  resolveModel,
  serverDefaultModel,
  type ModelOption,
  useModelPrefs,
  choiceKey,
  useModelStore,
  modelSections,
  ModelPalette,
  rowValue,
} from '../models'
import { isBusy, useChatPanels } from '../chat'
import { useSessionTransfer } from '../sessions'
import { PaletteRoot } from './PaletteRoot'
import { Dialog } from '../../ui/Dialog'
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

/** The open session's model as the palette shows it: the options, the one in use, and choosing one (which closes the palette). */
function usePaletteModel(selected: string | undefined, sessions: Session[] | undefined, onClose: () => void) {
  const { directory } = useScope()
  const providers = useConfigProviders()
  const config = useServerConfig()
  const ckey = choiceKey(directory, selected)
  const chosen = useModelStore((s) => s.models[ckey])
  const options = useMemo(() => modelOptions(providers.data?.providers ?? []), [providers.data])
  const session = sessions?.find((s) => s.id === selected)
  const resolved = resolveModel(chosen, session, serverDefaultModel(config.data?.model, providers.data?.providers ?? [], providers.data?.default ?? {}))
  const current = resolved.ref ? modelKey(resolved.ref) : undefined
  const setModel = (o: ModelOption) => {
    useModelPrefs.getState().markUsed(o.key)
    useModelStore.getState().setModel(ckey, o.ref)
    onClose()
  }
  return { options, resolved, current, setModel }
}

/** The model rows for `q`: while searching every match, best first; else only the user's own models. */
function modelRowsFor(options: ModelOption[], q: string, prefs: Parameters<typeof modelSections>[2]): ModelOption[] {
  const s = modelSections(options, q, prefs)
  // With nothing typed only the user's own models; all of them are one "Change model…" away.
  const list = q ? s.matches : [...s.favourites, ...s.recent]
  return [...new Map(list.map((o) => [o.key, o])).values()].slice(0, SEARCH_LIMIT)
}

export function PaletteDialog({ selected, onSelect, onOpenSettings, onClose }: CommandPaletteProps & { onClose(): void }) {
  const sessions = useSessions()
  const status = useStatusMap()
  const abort = useAbort()
  const prefs = useModelPrefs()
  const model = usePaletteModel(selected, sessions.data, onClose)
  const [page, setPage] = useState<'root' | 'models'>('root')
  const [query, setQuery] = useState('')
  const [value, setValue] = useState('')
  const busy = !!selected && isBusy(status.data?.[selected])
  const transfer = useSessionTransfer((id) => onSelect(id))

  const run = (f: () => void) => () => {
    onClose()
    f()
  }
  const allActions = [
    { id: 'new', label: 'New conversation', run: run(() => onSelect(undefined)) },
    { id: 'model', label: 'Change model…', run: () => (setPage('models'), setQuery('')) },
    { id: 'settings', label: 'Open settings', run: run(onOpenSettings) },
    ...(busy ? [{ id: 'stop', label: 'Stop the running turn', run: run(() => abort.mutate(selected!)) }] : []),
    ...(selected
      ? [
          { id: 'changes', label: 'Show the session’s changes', run: run(() => useChatPanels.getState().show('changes')) },
          { id: 'checkpoints', label: 'Open checkpoints', run: run(() => useChatPanels.getState().show('checkpoints')) },
          { id: 'export-md', label: 'Export this session as Markdown', run: run(() => void transfer.exportAs(selected, 'md')) },
          { id: 'export-json', label: 'Export this session as opencode JSON', run: run(() => void transfer.exportAs(selected, 'json')) },
        ]
      : []),
    { id: 'import', label: 'Import a session (opencode JSON)…', run: run(() => void transfer.importFromFile()) },
  ]
  const rowsFor = (q: string) => ({
    actions: allActions.filter((a) => matches(a.label, q)),
    sessionRows: (sessions.data ?? []).filter((s) => matches(s.title, q)).slice(0, q ? SEARCH_LIMIT : SESSIONS_SHOWN_EMPTY),
    modelRows: modelRowsFor(model.options, q, prefs),
  })
  const { actions, sessionRows, modelRows } = rowsFor(query.trim())
  // Every keystroke highlights the first row of the new list (for models: the best match), not
  // whichever row happened to be highlighted before.
  const search = (text: string) => {
    setQuery(text)
    const next = rowsFor(text.trim())
    const a = next.actions[0]
    const sess = next.sessionRows[0]
    const m = next.modelRows[0]
    setValue(a ? `action:${a.id}` : sess ? `session:${sess.id}` : m ? rowValue('all', m.key) : '')
  }

  return (
    // No initialFocus: the search box is the palette's first control, and the dialog focuses that.
    <Dialog className="command-palette" label="Command palette" testid="command-palette" onClose={onClose}>
      {page === 'models' ? (
        <ModelPalette options={model.options} current={model.current} currentNote={model.resolved.source === 'default' ? 'default' : undefined} onChoose={model.setModel} />
      ) : (
        <PaletteRoot
          value={value}
          onValueChange={setValue}
          query={query}
          onQueryChange={search}
          toggleFavourite={prefs.toggleFavourite}
          actions={actions}
          sessionRows={sessionRows}
          selected={selected}
          openSession={(id) => run(() => onSelect(id))}
          modelRows={modelRows}
          current={model.current}
          onChooseModel={model.setModel}
        />
      )}
    </Dialog>
  )
}
