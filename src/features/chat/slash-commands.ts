/**
 * Slash commands typed in the composer: what a draft means (a command, an unknown command, or text)
 * and what to offer while it is typed. Pure, so the popup, the send path and the tests agree.
 *
 * A draft is a command when it starts with `/` and a word (`/retry`, `/rewind 2`); those are never
 * sent to the model. `//text` sends `/text`, and a first word with another slash (`/usr/bin/env …`)
 * is a path, sent as text.
 */

export type CommandName = 'retry' | 'rewind' | 'undo'

export interface SlashCommand {
  name: CommandName
  args?: string
  description: string
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'retry', args: '[model]', description: 'Retake the last turn, with another model if named' },
  { name: 'rewind', args: '[turn]', description: 'Go back to before a turn (pick one, or give its number)' },
  { name: 'undo', description: 'Undo the last file restore' },
]

export type ParsedDraft = { kind: 'command'; name: CommandName; arg: string } | { kind: 'unknown'; name: string } | { kind: 'text'; text: string }

const COMMAND = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/

export function parseDraft(draft: string): ParsedDraft {
  if (draft.startsWith('//')) return { kind: 'text', text: draft.slice(1) }
  const m = COMMAND.exec(draft.trim())
  if (!draft.startsWith('/') || !m) return { kind: 'text', text: draft }
  const name = m[1]!.toLowerCase()
  const known = SLASH_COMMANDS.find((c) => c.name === name)
  return known ? { kind: 'command', name: known.name, arg: (m[2] ?? '').trim() } : { kind: 'unknown', name }
}

export interface CompletionItem {
  id: string
  label: string
  detail?: string
  /** The draft once this item is chosen. */
  text: string
  /** Enter runs it at once (a complete command); otherwise it only completes the draft. */
  run: boolean
}

export interface CompletionData {
  models: ReadonlyArray<{ key: string; label: string }>
  /** The session's user turns in order (number from 1). */
  turns: ReadonlyArray<{ text: string }>
}

const MAX_ITEMS = 12

/** What the popup offers for this draft; empty when the draft is not (yet) a command being typed. */
export function completions(draft: string, data: CompletionData): CompletionItem[] {
  if (!draft.startsWith('/') || draft.startsWith('//') || draft.includes('\n')) return []
  const space = draft.search(/\s/)
  if (space < 0) {
    const prefix = draft.slice(1).toLowerCase()
    return SLASH_COMMANDS.filter((c) => c.name.startsWith(prefix)).map((c) => ({
      id: `cmd-${c.name}`,
      label: `/${c.name}${c.args ? ` ${c.args}` : ''}`,
      detail: c.description,
      text: `/${c.name}${c.name === 'rewind' ? ' ' : ''}`,
      // /rewind needs a turn: Enter opens the list of turns instead of running.
      run: c.name !== 'rewind',
    }))
  }
  const name = draft.slice(1, space).toLowerCase()
  const query = draft.slice(space).trim().toLowerCase()
  if (name === 'retry') {
    return data.models
      .filter((m) => !query || m.key.toLowerCase().includes(query) || m.label.toLowerCase().includes(query))
      .slice(0, MAX_ITEMS)
      .map((m) => ({ id: `model-${m.key}`, label: m.label, detail: m.key, text: `/retry ${m.key}`, run: true }))
  }
  if (name === 'rewind') {
    return data.turns
      .map((t, i) => ({ n: i + 1, text: t.text }))
      .filter((t) => !query || String(t.n).startsWith(query) || t.text.toLowerCase().includes(query))
      .slice(-MAX_ITEMS)
      .map((t) => ({ id: `turn-${t.n}`, label: `${t.n}. ${oneLine(t.text)}`, text: `/rewind ${t.n}`, run: true }))
  }
  return []
}

export function oneLine(text: string, max = 80): string {
  const line = text.trim().split('\n')[0] ?? ''
  return line.length > max ? `${line.slice(0, max - 1)}…` : line || '(no text)'
}

/** The model a `/retry <model>` names: exact key, then exact model id or name, then a unique partial match. */
export function findModel<T extends { key: string; label: string }>(models: readonly T[], query: string): T | undefined {
  const q = query.trim().toLowerCase()
  if (!q) return undefined
  const exact = models.find((m) => m.key.toLowerCase() === q || m.key.split('/').slice(1).join('/').toLowerCase() === q || m.label.toLowerCase() === q)
  if (exact) return exact
  const partial = models.filter((m) => m.key.toLowerCase().includes(q) || m.label.toLowerCase().includes(q))
  return partial.length === 1 ? partial[0] : undefined
}
