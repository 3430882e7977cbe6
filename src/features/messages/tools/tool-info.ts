/**
 * What a tool call is about, in one line: pure functions of the part (and the project folder, so
 * paths read relative to it). Inputs come from the model and metadata from opencode: every field is
 * read defensively, a missing or odd one gives a shorter line, never a crash.
 */
import type { ToolPart } from '../../../api/types'
import { stripAnsi } from '../ansi'
import { displayPath } from '../../../../shared/display-path'

export type ToolState = ToolPart['state']

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

export function meta(state: ToolState): Record<string, unknown> {
  return ('metadata' in state && state.metadata) || {}
}

/**
 * The folders a tool's paths read relative to: the project, then the folder the turn ran in (a
 * forked session's copied turns ran in the folder it was forked from: `one.txt` there is `one.txt`
 * in the fork too).
 */
export type PathRoots = string | readonly (string | undefined)[] | undefined

/** A path relative to the first of the folders it lies inside; absolute (or as given) otherwise. */
export function relPath(path: string | undefined, roots: PathRoots): string {
  if (!path) return ''
  for (const directory of typeof roots === 'string' ? [roots] : (roots ?? [])) {
    if (!directory) continue
    const root = directory.replace(/[\\/]+$/, '')
    if (path === root) return '.'
    if (path.startsWith(`${root}/`) || path.startsWith(`${root}\\`)) return displayPath(path.slice(root.length + 1))
  }
  return displayPath(path)
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export function lineCount(text: string): number {
  if (!text) return 0
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

/** The file path a file tool works on (opencode's tools name it filePath; patches vary). */
export function filePathOf(part: ToolPart): string | undefined {
  const input = part.state.input ?? {}
  return str(input.filePath) ?? str(input.path) ?? str(meta(part.state).filepath)
}

export interface TodoItem {
  content: string
  status: string
  priority?: string
}

export function todosOf(state: ToolState): TodoItem[] {
  const list = (state.input?.todos ?? meta(state).todos) as unknown
  if (!Array.isArray(list)) return []
  return list
    .filter((t): t is Record<string, unknown> => !!t && typeof t === 'object')
    .map((t) => ({ content: str(t.content) ?? '', status: str(t.status) ?? 'pending', priority: str(t.priority) }))
}

/** The first line of a command, shortened (the whole command is shown when expanded). */
function firstLine(s: string, max = 120): string {
  const line = s.split('\n')[0]!
  const cut = line.length > max ? `${line.slice(0, max - 1)}…` : line
  return s.includes('\n') ? `${cut} …` : cut
}

export interface ToolSummary {
  /** The tool's name as shown (bash, edit, …). */
  label: string
  /** What it worked on: the command, the path, the pattern. */
  subject: string
  /** A short fact about the result: exit code, size, counts. */
  detail?: string
}

export function summarize(part: ToolPart, directory: PathRoots): ToolSummary {
  const { state } = part
  const input = state.input ?? {}
  const m = meta(state)
  const done = state.status === 'completed'
  const output = done ? state.output : ''
  const title = ('title' in state && str(state.title)) || ''
  const path = relPath(filePathOf(part), directory)
  switch (part.tool) {
    case 'bash': {
      const exit = num(m.exit)
      return { label: 'bash', subject: `$ ${firstLine(str(input.command) ?? title)}`, detail: exit === undefined ? undefined : `exit ${exit}` }
    }
    case 'write': {
      const content = str(input.content) ?? ''
      return { label: 'write', subject: path, detail: `${plural(lineCount(content), 'line')} · ${formatBytes(new TextEncoder().encode(content).length)}` }
    }
    case 'read': {
      const offset = num(input.offset)
      const limit = num(input.limit)
      const range = offset !== undefined || limit !== undefined ? `from line ${offset ?? 1}${limit ? `, ${limit} lines` : ''}` : undefined
      return { label: 'read', subject: path, detail: range }
    }
    case 'list': {
      const count = num(m.count)
      return { label: 'list', subject: relPath(str(input.path), directory) || '.', detail: count === undefined ? undefined : plural(count, 'entry').replace('entrys', 'entries') }
    }
    case 'glob':
    case 'grep': {
      const count = num(m.count) ?? num(m.matches)
      const where = str(input.path) ? ` in ${relPath(str(input.path), directory)}` : ''
      const noun = part.tool === 'glob' ? 'file' : 'match'
      return {
        label: part.tool,
        subject: `${str(input.pattern) ?? ''}${where}`,
        detail: count === undefined ? undefined : plural(count, noun).replace('matchs', 'matches'),
      }
    }
    case 'edit':
    case 'multiedit':
    case 'patch':
    case 'apply_patch': {
      const fd = (m.filediff ?? {}) as Record<string, unknown>
      const add = num(fd.additions)
      const del = num(fd.deletions)
      const subject = path || title
      return { label: part.tool, subject, detail: add !== undefined && del !== undefined ? `+${add} −${del}` : undefined }
    }
    case 'todowrite':
    case 'todoread': {
      const todos = todosOf(state)
      const finished = todos.filter((t) => t.status === 'completed').length
      return { label: 'todos', subject: todos.length ? `${finished}/${todos.length} done` : title }
    }
    default: {
      // Unknown tools (MCP, plugins): their title, else the first string argument.
      const first = Object.values(input).find((v) => typeof v === 'string') as string | undefined
      return { label: part.tool, subject: title || firstLine(first ?? ''), detail: output ? plural(lineCount(stripAnsi(output)), 'line') : undefined }
    }
  }
}
