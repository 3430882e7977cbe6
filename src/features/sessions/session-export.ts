/**
 * A session taken out of Retake: as Markdown to read or share (each turn, what the agent did, and
 * the earlier attempts of a retaken turn, marked as such), or as opencode's own export format
 * (`{info, messages}`, what `opencode export` writes and `opencode import` and Retake read back).
 * Pure: the caller fetches the messages and the attempts and saves the text.
 */
import type { Attempt } from '../../../shared/ipc-contract'
import { parseTextPart } from '../../../shared/attachments/inlined-attachment'
import type { MessageWithParts, Part, Session } from '../../api/types'

export function toOpencodeJson(session: Session, messages: readonly MessageWithParts[]): string {
  return `${JSON.stringify({ info: session, messages }, null, 2)}\n`
}

/** A fence longer than any backtick run in the text, so code that holds ``` stays one block. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const f = '`'.repeat(longest + 1)
  return `${f}${lang}\n${text.replace(/\n$/, '')}\n${f}`
}

function partMarkdown(p: Part): string | null {
  if (p.type === 'text') {
    if (p.synthetic || p.ignored) return null
    const attached = parseTextPart(p)
    return attached ? `**Attached:** ${attached.name} (${attached.mime}, ${attached.byteLength} bytes)\n\n${fence(attached.text)}` : p.text.trim()
  }
  if (p.type === 'file') return `**Attached:** ${p.filename ?? 'file'} (${p.mime})`
  if (p.type === 'reasoning') return p.text.trim() ? `> *Thinking:* ${p.text.trim().replace(/\n/g, '\n> ')}` : null
  if (p.type === 'tool') {
    const s = p.state
    const title = s.status === 'completed' ? s.title || p.tool : p.tool
    const input = 'input' in s && s.input && Object.keys(s.input).length > 0 ? `\n\n${fence(JSON.stringify(s.input, null, 2), 'json')}` : ''
    const outcome = s.status === 'completed' ? (s.output?.trim() ? `\n\n${fence(s.output.trim())}` : '') : s.status === 'error' ? `\n\nFailed: ${s.error}` : ` (${s.status})`
    return `**Tool \`${p.tool}\`:** ${title}${input}${outcome}`
  }
  return null
}

function messageMarkdown(m: MessageWithParts, heading = '##'): string {
  const who = m.info.role === 'user' ? 'You' : `${m.info.agent || 'Assistant'} · ${m.info.providerID}/${m.info.modelID}`
  const error =
    m.info.role === 'assistant' && m.info.error
      ? [`**Failed:** ${'data' in m.info.error && m.info.error.data && 'message' in m.info.error.data ? String(m.info.error.data.message) : m.info.error.name}`]
      : []
  const body = [...m.parts.map(partMarkdown).filter((s): s is string => !!s), ...error].join('\n\n')
  return `${heading} ${who}\n\n${body || '*(nothing)*'}`
}

function attemptsMarkdown(turn: MessageWithParts, attempts: readonly Attempt[]): string | null {
  const mine = attempts.filter((a) => a.messageID === turn.info.id).sort((a, b) => a.at - b.at)
  if (mine.length === 0) return null
  const sections = mine.map((a, i) => {
    const model = a.model ? ` with ${a.model.providerID}/${a.model.modelID}` : ''
    const answers = (a.messages as MessageWithParts[]).map((m) => messageMarkdown(m, '####')).join('\n\n')
    return `### Earlier attempt ${i + 1} of this turn${model} (replaced ${new Date(a.at).toISOString()})\n\n${answers || '*(no answer)*'}`
  })
  return `> This turn was retaken: ${mine.length === 1 ? 'one earlier attempt is' : `${mine.length} earlier attempts are`} kept below, after the answer in use.\n\n${sections.join('\n\n')}`
}

export function toMarkdown(session: Session, messages: readonly MessageWithParts[], attempts: readonly Attempt[] = [], exportedAt = Date.now()): string {
  const head = `# ${session.title || 'Untitled'}\n\nExported from Retake on ${new Date(exportedAt).toISOString()} · opencode session \`${session.id}\` · ${session.directory}`
  const out = [head]
  // A turn's earlier attempts follow the last answer of the turn in use (before the next question).
  let turn: MessageWithParts | undefined
  const flush = () => {
    const section = turn && attemptsMarkdown(turn, attempts)
    if (section) out.push(section)
  }
  for (const m of messages) {
    if (m.info.role === 'user') {
      flush()
      turn = m
    }
    out.push(messageMarkdown(m))
  }
  flush()
  return `${out.join('\n\n---\n\n')}\n`
}

/** A file name for the export: the title's words, nothing a file system would refuse. */
export function exportFileName(session: Session, ext: 'md' | 'json'): string {
  const base = (session.title || 'session')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
  return `${base || 'session'}.${ext}`
}
