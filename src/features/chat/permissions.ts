/**
 * Requests that hold a turn until the user answers: permissions (opencode asks before a tool runs
 * when the user's config says "ask") and questions (the agent's `question` tool). The pending ones
 * are kept in the query cache and patched by events.
 */
import type { OpencodeEvent } from '../../api/types'

export interface PermissionRequest {
  id: string
  sessionID: string
  permission: string
  patterns: string[]
  metadata: Record<string, unknown>
  always: string[]
  tool?: { messageID: string; callID: string }
}

/** Keeps a list of pending requests current: added when asked, removed when answered. */
function applyToPending<T extends { id: string }>(list: T[] | undefined, event: OpencodeEvent, asked: string, answered: readonly string[]): T[] | undefined {
  if (!list) return list
  if (event.type === asked) {
    const item = event.properties as unknown as T
    return [...list.filter((x) => x.id !== item.id), item]
  }
  if (answered.includes(event.type)) {
    const { requestID } = event.properties as { requestID: string }
    const next = list.filter((x) => x.id !== requestID)
    return next.length === list.length ? list : next
  }
  return list
}

export function applyToPermissions(list: PermissionRequest[] | undefined, event: OpencodeEvent): PermissionRequest[] | undefined {
  return applyToPending(list, event, 'permission.asked', ['permission.replied'])
}

/**
 * Characters that change how text looks without showing themselves: bidi embeddings, overrides and
 * isolates (U+202A–202E, U+2066–2069), the direction marks (U+200E/F, U+061C), zero-width ones,
 * line/paragraph separators, a BOM and every control character but tab and newline. In a command
 * they can make `rm -rf ~ #⟨…⟩safe` read as something else than what will run.
 */
function isHidden(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x09 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x00ad ||
    code === 0x061c ||
    code === 0x180e ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    code === 0xfeff
  )
}

/** The text with each hidden character written out as ⟨U+XXXX⟩, so what is shown is what runs. */
export function visibleControls(text: string): string {
  let out = ''
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    out += isHidden(code) ? `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩` : ch
  }
  return out
}

/** What opencode's permission keys ask for, in the user's words. */
const ACTIONS: Record<string, string> = {
  bash: 'Run a command',
  edit: 'Write or change a file',
  read: 'Read a file',
  list: 'List a folder',
  glob: 'Find files named',
  grep: 'Search the files for',
  webfetch: 'Fetch a web page',
  websearch: 'Search the web for',
  codesearch: 'Search code on the web for',
  task: 'Start a subagent',
  skill: 'Load a skill',
  todowrite: 'Update its to-do list',
  todoread: 'Read its to-do list',
  lsp: 'Ask the language server',
  doom_loop: 'Go on after repeating the same call',
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined)

/**
 * What the agent wants to do, in words, and on what: ("Run a command", "rm -rf build"),
 * ("Use a file outside the project", "/home/me/x"). The target has its hidden characters shown.
 */
export function describePermission(p: PermissionRequest): { action: string; target: string } {
  const patterns = p.patterns.filter((x) => x && x !== '*').join(', ')
  const m = p.metadata
  let action = ACTIONS[p.permission] ?? `Use “${p.permission}”`
  let target = patterns
  if (p.permission === 'bash') target = text(m.command) ?? patterns
  else if (p.permission === 'doom_loop') target = text(m.tool) ?? patterns
  else if (p.permission === 'external_directory') {
    const command = text(m.command)
    action = command ? 'Run a command outside the project' : 'Use a file outside the project'
    target = command ?? text(m.filepath) ?? text(m.parentDir) ?? patterns
  }
  return { action, target: visibleControls(target) }
}

export interface QuestionRequest {
  id: string
  sessionID: string
  questions: { question: string; header: string; options: { label: string; description: string }[]; multiple?: boolean; custom?: boolean }[]
}

export function applyToQuestions(list: QuestionRequest[] | undefined, event: OpencodeEvent): QuestionRequest[] | undefined {
  return applyToPending(list, event, 'question.asked', ['question.replied', 'question.rejected'])
}

/** One answer per question: the chosen labels, plus the user's own text where allowed. */
export function questionAnswers(q: QuestionRequest, chosen: Record<number, string[]>, custom: Record<number, string>): string[][] {
  return q.questions.map((_, i) => {
    const own = custom[i]?.trim()
    return [...(chosen[i] ?? []), ...(own ? [own] : [])]
  })
}
