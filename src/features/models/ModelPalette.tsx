/**
 * The one model list: search box, favourites, recent models, then every model by provider. Typing
 * lists the matches best first (model-search.ts) and highlights the best one on every keystroke;
 * ↑/↓ move, Enter chooses, Ctrl/⌘+S stars the highlighted row. Used by the chat's model picker,
 * "Retake with…" and the command palette.
 */
import { Command } from 'cmdk'
import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react'
import type { ModelOption } from './model-choice'
import { useModelPrefs } from './model-prefs-store'
import { formatContext, inputBadges, modelSections, sectionRows } from './model-list'
import '../../styles/palette.css'

type Section = 'fav' | 'recent' | 'all' | 'match'

/** cmdk needs one unique value per row; a model may show in several sections. */
export const rowValue = (section: Section, key: string) => `${section}:${key}`
const keyOfRow = (value: string) => value.slice(value.indexOf(':') + 1)

/** Star toggle for the highlighted row (the star buttons themselves are for the mouse). */
export function starShortcut(value: string, toggle: (key: string) => void) {
  return (e: KeyboardEvent) => {
    if (e.key.toLowerCase() !== 's' || !(e.ctrlKey || e.metaKey) || e.altKey || !value) return
    e.preventDefault()
    toggle(keyOfRow(value))
  }
}

/** The row's accessible name, spelled out: the star button inside must not become part of it. */
function rowLabel(o: ModelOption, facts: { note?: string; ctx: string | null | undefined; badges: string[]; starred: boolean; current: boolean; ticked?: boolean }): string {
  const { note, ctx, badges, starred, current, ticked } = facts
  return [
    `${o.modelName} · ${o.providerName}`,
    note,
    ctx && `${ctx} context`,
    badges.length ? `takes ${badges.join(' and ')}` : undefined,
    starred ? 'starred' : undefined,
    current ? 'current' : undefined,
    ticked ? 'ticked' : undefined,
  ]
    .filter(Boolean)
    .join(', ')
}

export function ModelRow({
  option: o,
  section,
  current,
  note,
  onChoose,
  showProvider = section !== 'all',
  ticked,
}: {
  option: ModelOption
  section: Section
  current: boolean
  note?: string
  /** Picking several (compare): whether this one is picked; its tick replaces the current model's. */
  ticked?: boolean
  onChoose(o: ModelOption): void
  /** Under a provider heading the provider's name would only repeat it. */
  showProvider?: boolean
}) {
  const starred = useModelPrefs((s) => s.favourites.includes(o.key))
  const toggle = useModelPrefs((s) => s.toggleFavourite)
  const ctx = formatContext(o.context)
  const badges = inputBadges(o)
  const label = rowLabel(o, { note, ctx, badges, starred, current, ticked })
  const mark = ticked ?? current
  return (
    <Command.Item
      value={rowValue(section, o.key)}
      onSelect={() => onChoose(o)}
      className="palette-row"
      aria-label={label}
      aria-checked={ticked}
      data-model={o.key}
      data-current={current || undefined}
      data-ticked={ticked || undefined}
    >
      <span className="palette-check" aria-hidden>
        {mark ? '✓' : ''}
      </span>
      <span className="palette-row-main">
        <span className="palette-row-name">{o.modelName}</span>
        {note && <span className="palette-row-note">({note})</span>}
        {showProvider && <span className="palette-row-provider">{o.providerName}</span>}
      </span>
      <span className="palette-row-meta">
        {ctx && (
          <span className="palette-badge" title="Context window (tokens)">
            {ctx}
          </span>
        )}
        {badges.map((b) => (
          <span key={b} className="palette-badge">
            {b}
          </span>
        ))}
      </span>
      <StarButton modelName={o.modelName} starred={starred} onToggle={() => toggle(o.key)} />
    </Command.Item>
  )
}

function StarButton({ modelName, starred, onToggle }: { modelName: string; starred: boolean; onToggle(): void }) {
  return (
    <button
      type="button"
      tabIndex={-1}
      className={`palette-star${starred ? ' on' : ''}`}
      aria-label={starred ? `Unstar ${modelName}` : `Star ${modelName}`}
      aria-pressed={starred}
      title={starred ? 'Unstar (Ctrl+S)' : 'Star: pin to the top (Ctrl+S)'}
      // Keep focus in the search box, and do not choose the row.
      onMouseDown={(e) => e.preventDefault()}
      onClick={(e) => {
        e.stopPropagation()
        onToggle()
      }}
    >
      {starred ? '★' : '☆'}
    </button>
  )
}

/** The row highlighted when the palette opens: the current model, in the first section that lists it. */
function initialRowValue(current: string | undefined, favourites: readonly string[], recent: readonly string[]): string {
  if (!current) return ''
  const section: Section = favourites.includes(current) ? 'fav' : recent.includes(current) ? 'recent' : 'all'
  return rowValue(section, current)
}

export function ModelPalette({
  options,
  current,
  currentNote,
  onChoose,
  label = 'Choose a model',
  ticked,
}: {
  options: readonly ModelOption[]
  /** Key of the model in use: marked, and highlighted when the palette opens. */
  current?: string
  /** Said after the current model's name, e.g. "default" for the server's choice. */
  currentNote?: string
  onChoose(o: ModelOption): void
  label?: string
  /**
   * Picking several (Retake with… → compare): the keys picked so far, ticked in the list. A pick
   * then leaves the list where it is: it is not made a recent model, which would move its row.
   */
  ticked?: readonly string[]
}) {
  const favourites = useModelPrefs((s) => s.favourites)
  const recent = useModelPrefs((s) => s.recent)
  const toggle = useModelPrefs((s) => s.toggleFavourite)
  const [query, setQuery] = useState('')
  const sections = useMemo(() => modelSections(options, query, { favourites, recent }), [options, query, favourites, recent])
  const [value, setValue] = useState(() => initialRowValue(current, favourites, recent))
  // The highlight follows the typing to the best match (the current model does not keep it): set
  // here, with the query, rather than left to cmdk's own pick of a first row after it re-renders.
  const search = (q: string) => {
    setQuery(q)
    const first = sectionRows(modelSections(options, q, { favourites, recent }))[0]
    setValue(first ? rowValue(first.section, first.option.key) : '')
  }
  const choose = (o: ModelOption) => {
    if (!ticked) useModelPrefs.getState().markUsed(o.key)
    onChoose(o)
  }
  const row = (o: ModelOption, section: Section) => (
    <ModelRow
      key={rowValue(section, o.key)}
      option={o}
      section={section}
      current={o.key === current}
      note={o.key === current ? currentNote : undefined}
      onChoose={choose}
      {...(ticked ? { ticked: ticked.includes(o.key) } : {})}
    />
  )
  return (
    <Command
      className="palette"
      label={label}
      shouldFilter={false}
      loop
      // Ctrl+K belongs to the command palette; cmdk would take it as "previous row".
      vimBindings={false}
      value={value}
      onValueChange={setValue}
      onKeyDown={starShortcut(value, toggle)}
    >
      <Command.Input
        className="palette-input"
        autoFocus
        value={query}
        onValueChange={search}
        placeholder="Search models and providers…"
        aria-label="Search models"
        data-testid="model-search"
      />
      <Command.List className="palette-list" label="Models">
        <Command.Empty className="palette-empty">{options.length ? 'No model matches.' : 'No models configured.'}</Command.Empty>
        <SectionGroups sections={sections} row={row} />
      </Command.List>
      <div className="palette-hint" aria-hidden>
        ↑↓ move · Enter choose · Ctrl+S star · Esc close
      </div>
    </Command>
  )
}

/** Favourites, recent, then every provider's models; and how many more a search would show. */
function SectionGroups({ sections, row }: { sections: ReturnType<typeof modelSections>; row(o: ModelOption, section: Section): ReactNode }) {
  return (
    <>
      {sections.favourites.length > 0 && (
        <Command.Group heading="★ Favourites" className="palette-group">
          {sections.favourites.map((o) => row(o, 'fav'))}
        </Command.Group>
      )}
      {sections.recent.length > 0 && (
        <Command.Group heading="Recent" className="palette-group">
          {sections.recent.map((o) => row(o, 'recent'))}
        </Command.Group>
      )}
      {sections.matches.length > 0 && (
        <Command.Group heading="Best matches" className="palette-group">
          {sections.matches.map((o) => row(o, 'match'))}
        </Command.Group>
      )}
      {sections.groups.map((g, i) => (
        <Command.Group key={`${i}:${g.provider}`} heading={g.provider} className="palette-group">
          {g.options.map((o) => row(o, 'all'))}
        </Command.Group>
      ))}
      {sections.hidden > 0 && <div className="palette-more">{sections.hidden} more models — type to narrow the list.</div>}
    </>
  )
}
