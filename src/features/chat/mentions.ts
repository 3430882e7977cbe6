/**
 * `@` mentions in the composer: a file of the project (found with opencode's file search, which
 * honours .gitignore) or an agent, picked from the popup while typing `@…`. A picked file goes with
 * the prompt the way opencode's own clients send it — a `file://` part that the server reads when
 * the prompt arrives, its `source` pointing at the `@path` in the text — and an agent as an agent
 * part. Pure: the popup, the send path and the tests agree on it.
 */
import type { PartInput } from '../../../shared/ipc-contract'
import type { CompletionItem } from './slash-commands'

export type Mention = { kind: 'file'; path: string } | { kind: 'agent'; name: string }

/** The `@word` the caret is at the end of (`@` at the start or after a space), or null. */
export function mentionAt(draft: string, caret: number): { start: number; query: string } | null {
  const m = /(^|\s)@([^\s@]*)$/.exec(draft.slice(0, caret))
  return m ? { start: caret - m[2]!.length - 1, query: m[2]! } : null
}

const MAX_ITEMS = 12

/** The popup's items for the `@word` at the caret: agents whose name starts so, then files. */
export function mentionItems(
  draft: string,
  caret: number,
  found: { files: readonly string[]; agents: ReadonlyArray<{ name: string; description?: string }> },
): Array<CompletionItem & { mention: Mention }> {
  const at = mentionAt(draft, caret)
  if (!at) return []
  const q = at.query.toLowerCase()
  const replace = (token: string) => `${draft.slice(0, at.start)}@${token} ${draft.slice(caret).replace(/^ /, '')}`
  const agents = found.agents
    .filter((a) => a.name.toLowerCase().startsWith(q))
    .map((a) => ({
      id: `agent-${a.name}`,
      label: `@${a.name}`,
      detail: a.description || 'agent',
      text: replace(a.name),
      run: false,
      mention: { kind: 'agent', name: a.name } as Mention,
    }))
  const files = found.files.map((f) => ({
    id: `file-${f}`,
    label: f,
    detail: f.endsWith('/') ? 'folder' : 'file',
    text: replace(f),
    run: false,
    mention: { kind: 'file', path: f } as Mention,
  }))
  return [...agents, ...files].slice(0, MAX_ITEMS)
}

/** The parts the mentions still in `text` add to the prompt (one per mention, the first `@x` each points at). */
export function mentionParts(text: string, mentions: readonly Mention[], directory: string): PartInput[] {
  const parts: PartInput[] = []
  const seen = new Set<string>()
  for (const m of mentions) {
    const token = `@${m.kind === 'file' ? m.path : m.name}`
    const start = findToken(text, token)
    if (start < 0 || seen.has(token)) continue
    seen.add(token)
    const source = { value: token, start, end: start + token.length }
    if (m.kind === 'agent') {
      parts.push({ type: 'agent', name: m.name, source })
      continue
    }
    const path = `${directory.replace(/\/+$/, '')}/${m.path.replace(/\/+$/, '')}`
    const folder = m.path.endsWith('/')
    parts.push({
      type: 'file',
      mime: folder ? 'application/x-directory' : 'text/plain',
      filename: m.path,
      url: `file://${path.split('/').map(encodeURIComponent).join('/')}`,
      source: { type: 'file', path, text: source },
    })
  }
  return parts
}

/** Where `token` stands in `text` as a word of its own (not inside a longer path), or -1. */
function findToken(text: string, token: string): number {
  for (let i = text.indexOf(token); i >= 0; i = text.indexOf(token, i + 1)) {
    const before = i === 0 || /\s/.test(text[i - 1]!)
    const after = i + token.length === text.length || /\s|[.,;:!?)]/.test(text[i + token.length]!)
    if (before && after) return i
  }
  return -1
}
