/**
 * Slash commands typed in the composer: what a draft means (a command, an unknown command, or text)
 * and what to offer while it is typed. Pure, so the popup, the send path and the tests agree.
 *
 * A draft is a command when it starts with `/` and a word (`/retake`, `/rewind 2`); those are never
 * sent to the model as text. Retake's own run here; opencode's (`/init`, `/review`, the config's and
 * `.opencode/command/*.md`) run on the server as a turn of their own, listed after Retake's. `//text`
 * sends `/text`, and a first word with another slash (`/usr/bin/env …`) is a path, sent as text,
 * unless it is the exact name of an opencode command.
 */

export type CommandName = 'retake' | 'rewind' | 'undo'

export interface SlashCommand {
  name: CommandName
  args?: string
  description: string
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'retake', args: '[model]', description: 'Retake the last turn, with another model if named' },
  { name: 'rewind', args: '[turn]', description: 'Go back to before a turn and edit its message (nothing is sent)' },
  { name: 'undo', description: 'Undo the last file restore' },
]

/** One of opencode's commands as the server lists it (GET /command). */
export interface ServerCommand {
  name: string
  description?: string
  /** The template's placeholders ($ARGUMENTS, $1 …): the command wants words after its name. */
  hints?: readonly string[]
}

export type ParsedDraft =
  { kind: 'command'; name: CommandName; arg: string } | { kind: 'opencode'; name: string; arg: string } | { kind: 'unknown'; name: string } | { kind: 'text'; text: string }

const COMMAND = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/

/** Names that still run a command after it was renamed: `/retry` was `/retake` before. */
const OLD_NAMES: Readonly<Record<string, CommandName>> = { retry: 'retake' }

export function parseDraft(draft: string, serverCommands: readonly ServerCommand[] = []): ParsedDraft {
  if (draft.startsWith('//')) return { kind: 'text', text: draft.slice(1) }
  if (!draft.startsWith('/')) return { kind: 'text', text: draft }
  const word = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(draft.trim())
  const m = COMMAND.exec(draft.trim())
  const name = m ? m[1]!.toLowerCase() : undefined
  const own = SLASH_COMMANDS.find((c) => c.name === (name && Object.hasOwn(OLD_NAMES, name) ? OLD_NAMES[name] : name))
  // Retake's own win over a server command of the same name: their meaning here is Retake's.
  if (own) return { kind: 'command', name: own.name, arg: (m![2] ?? '').trim() }
  const server = word && serverCommands.find((c) => c.name === word[1])
  if (server) return { kind: 'opencode', name: server.name, arg: (word[2] ?? '').trim() }
  return m ? { kind: 'unknown', name: name! } : { kind: 'text', text: draft }
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
  /** opencode's commands for this project. */
  commands?: readonly ServerCommand[]
}

const MAX_ITEMS = 12

/** What the popup offers for this draft; empty when the draft is not (yet) a command being typed. */
export function completions(draft: string, data: CompletionData): CompletionItem[] {
  if (!draft.startsWith('/') || draft.startsWith('//') || draft.includes('\n')) return []
  const space = draft.search(/\s/)
  if (space < 0) {
    const prefix = draft.slice(1).toLowerCase()
    const own = SLASH_COMMANDS.filter((c) => c.name.startsWith(prefix)).map((c) => ({
      id: `cmd-${c.name}`,
      label: `/${c.name}${c.args ? ` ${c.args}` : ''}`,
      detail: c.description,
      text: `/${c.name}${c.name === 'rewind' ? ' ' : ''}`,
      // /rewind needs a turn: Enter opens the list of turns instead of running.
      run: c.name !== 'rewind',
    }))
    const server = (data.commands ?? [])
      .filter((c) => c.name.toLowerCase().startsWith(prefix) && !SLASH_COMMANDS.some((o) => o.name === c.name))
      .slice(0, MAX_ITEMS)
      .map((c) => {
        const wantsWords = (c.hints?.length ?? 0) > 0
        return {
          id: `oc-${c.name}`,
          label: `/${c.name}${wantsWords ? ' …' : ''}`,
          detail: c.description || 'opencode command',
          // A command that takes words is completed, to type them; one that takes none runs.
          text: `/${c.name}${wantsWords ? ' ' : ''}`,
          run: !wantsWords,
        }
      })
    return [...own, ...server]
  }
  const name = draft.slice(1, space).toLowerCase()
  const query = draft.slice(space).trim().toLowerCase()
  if (name === 'retake') {
    return data.models
      .filter((m) => !query || m.key.toLowerCase().includes(query) || m.label.toLowerCase().includes(query))
      .slice(0, MAX_ITEMS)
      .map((m) => ({ id: `model-${m.key}`, label: m.label, detail: m.key, text: `/retake ${m.key}`, run: true }))
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

/** The model a `/retake <model>` names: exact key, then exact model id or name, then a unique partial match. */
export function findModel<T extends { key: string; label: string }>(models: readonly T[], query: string): T | undefined {
  const q = query.trim().toLowerCase()
  if (!q) return undefined
  const exact = models.find((m) => m.key.toLowerCase() === q || m.key.split('/').slice(1).join('/').toLowerCase() === q || m.label.toLowerCase() === q)
  if (exact) return exact
  const partial = models.filter((m) => m.key.toLowerCase().includes(q) || m.label.toLowerCase().includes(q))
  return partial.length === 1 ? partial[0] : undefined
}
