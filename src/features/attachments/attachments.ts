/**
 * Composer attachments as pure decisions: which picked files are accepted (limits), which the chosen
 * model cannot take, what parts a message becomes, and how a stored part shows up as an attachment in
 * the timeline. Components only render these answers.
 */
import type { PartInput } from '../../../shared/ipc-contract'
import { checkModelSupport, detectFileType, type FileKind, type ModelAttachmentInfo } from '../../../shared/attachments/file-type'
import { INLINE_LIMIT_BYTES, bytesToDataUrl, canInline, parseDataUrl, parseTextPart } from '../../../shared/attachments/inlined-attachment'
import { inlineTextFileParts } from '../../../shared/retake/retry-payload'

/** A file in the composer, read into memory (never persisted: bytes stay out of localStorage). */
export interface PendingAttachment {
  id: string
  name: string
  size: number
  mime: string
  kind: FileKind
  bytes: Uint8Array
  /** Set when reading found the file unusable (an image that does not decode): it is refused. */
  problem?: string
}

/** Per-file limit for images, PDFs and other binaries (text files have INLINE_LIMIT_BYTES). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024
/** Per-message limits: providers cap request bodies, and base64 makes a file a third bigger. */
export const MAX_MESSAGE_BYTES = 20 * 1024 * 1024
export const MAX_FILES = 10

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

let counter = 0
/** Turns a read file into a pending attachment; the type comes from its bytes (file-type.ts). */
export function toPending(file: { name: string; bytes: Uint8Array; type?: string }): PendingAttachment {
  const detected = detectFileType(file.name, file.bytes, file.type || undefined)
  counter += 1
  return { id: `att-${Date.now().toString(36)}-${counter}`, name: file.name || 'pasted', size: file.bytes.length, mime: detected.mime, kind: detected.kind, bytes: file.bytes }
}

/**
 * Adds files to the ones already attached, in order, refusing each file that breaks a limit. A refusal
 * is a message for the user; the accepted files and the typed text are never touched by it.
 */
export function addWithLimits(existing: readonly PendingAttachment[], incoming: readonly PendingAttachment[]): { attachments: PendingAttachment[]; errors: string[] } {
  const out = [...existing]
  const errors: string[] = []
  let total = existing.reduce((n, a) => n + a.size, 0)
  for (const a of incoming) {
    if (a.problem) {
      errors.push(`"${a.name}" ${a.problem} It was not added.`)
      continue
    }
    if (out.length >= MAX_FILES) {
      errors.push(`"${a.name}" was not added: at most ${MAX_FILES} files per message.`)
      continue
    }
    if (a.kind === 'text') {
      // Text is inlined whole; above the inline limit it would go as a file part and be refused again.
      const verdict = canInline({ name: a.name, bytes: a.bytes, mime: a.mime })
      if (!verdict.ok) {
        errors.push(`${verdict.reason} It was not added.`)
        continue
      }
    } else if (a.size > MAX_FILE_BYTES) {
      errors.push(`"${a.name}" is ${formatBytes(a.size)}; files are limited to ${formatBytes(MAX_FILE_BYTES)}. It was not added.`)
      continue
    }
    if (total + a.size > MAX_MESSAGE_BYTES) {
      errors.push(`"${a.name}" was not added: one message can carry at most ${formatBytes(MAX_MESSAGE_BYTES)} of files.`)
      continue
    }
    total += a.size
    out.push(a)
  }
  return { attachments: out, errors }
}

/** What the provider list says a model takes (the server's `capabilities` shape), as file-type.ts reads it. */
export function attachmentInfoOf(caps: { attachment?: boolean; input?: { image?: boolean; pdf?: boolean } } | undefined): ModelAttachmentInfo | undefined {
  if (!caps) return undefined
  const input = ['text']
  if (caps.input?.image) input.push('image')
  if (caps.input?.pdf) input.push('pdf')
  return { attachment: caps.attachment, modalities: { input } }
}

/** Why this attachment cannot go to the model, or null. An unknown model (no capabilities) is not judged. */
export function supportIssue(a: Pick<PendingAttachment, 'kind'>, model: ModelAttachmentInfo | undefined): string | null {
  if (a.kind === 'binary') return checkModelSupport('binary', {})?.reason ?? null
  if (!model) return null
  return checkModelSupport(a.kind, model)?.reason ?? null
}

/** The models (of the given options) that accept every kind in `kinds`. */
export function modelsAccepting<T extends { capabilities?: Parameters<typeof attachmentInfoOf>[0] }>(options: readonly T[], kinds: readonly FileKind[]): T[] {
  return options.filter((o) => {
    const info = attachmentInfoOf(o.capabilities)
    return info !== undefined && kinds.every((k) => checkModelSupport(k, info) === null)
  })
}

/**
 * The parts of a message: the typed text first, then every attachment in the order attached. Text
 * files become inline text parts (the same `inlineTextFileParts` a retake uses, so both send identical
 * blocks); images, PDFs and other binaries stay file parts. Throws InlineRefusedError above the limit.
 */
export function buildPromptParts(text: string, attachments: readonly PendingAttachment[]): PartInput[] {
  const parts: PartInput[] = []
  if (text.trim().length > 0) parts.push({ type: 'text', text })
  for (const a of attachments) parts.push({ type: 'file', mime: a.mime, filename: a.name, url: bytesToDataUrl(a.bytes, a.mime) })
  return inlineTextFileParts(parts)
}

/** An attachment as the timeline shows it, from an inline text part or a real file part. */
export interface ShownAttachment {
  name: string
  mime: string
  /** Exact bytes when known (inline parts and data: URLs); null for file:// and other URLs. */
  bytes: Uint8Array | null
  /** The decoded text for textual attachments (viewer content). */
  text: string | null
  kind: FileKind
  size: number | null
  /** A data: URL to show an image inline. */
  imageUrl: string | null
  inline: boolean
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The attachment a stored part shows as, or null for parts that are not attachments. */
export function shownAttachment(part: { id: string; type: string; text?: string; mime?: string; filename?: string; url?: string }): ShownAttachment | null {
  if (part.type === 'text' && typeof part.text === 'string') {
    const a = parseTextPart({ id: part.id, text: part.text })
    if (!a) return null
    return { name: a.name, mime: a.mime, bytes: a.bytes, text: a.text, kind: 'text', size: a.byteLength, imageUrl: null, inline: true }
  }
  if (part.type !== 'file' || typeof part.url !== 'string') return null
  const name = part.filename ?? fileNameOf(part.url) ?? 'attachment'
  const decoded = /^data:/i.test(part.url) ? parseDataUrl(part.url) : null
  if (!decoded) {
    const kind: FileKind = /^image\//i.test(part.mime ?? '') ? 'image' : /pdf$/i.test(part.mime ?? '') ? 'pdf' : 'binary'
    return { name, mime: part.mime ?? 'application/octet-stream', bytes: null, text: null, kind, size: null, imageUrl: null, inline: false }
  }
  const type = detectFileType(name, decoded.bytes, part.mime)
  let text: string | null = null
  if (type.kind === 'text' && decoded.bytes.length <= INLINE_LIMIT_BYTES * 4) {
    try {
      text = utf8.decode(decoded.bytes)
    } catch {
      text = null
    }
  }
  return {
    name,
    mime: part.mime ?? type.mime,
    bytes: decoded.bytes,
    text,
    kind: type.kind,
    size: decoded.bytes.length,
    imageUrl: type.kind === 'image' ? part.url : null,
    inline: false,
  }
}

function fileNameOf(url: string): string | null {
  if (!/^file:/i.test(url)) return null
  const last = url.split(/[\\/]/).pop()
  if (!last) return null
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

/** How the viewer shows a textual attachment. */
export type ViewMode = 'markdown' | 'csv' | 'code' | 'text'

export function viewModeOf(name: string, mime: string): ViewMode {
  const m = mime.toLowerCase().split(';')[0]!.trim()
  const ext = name.toLowerCase().split('.').pop() ?? ''
  if (m === 'text/markdown' || ext === 'md' || ext === 'markdown' || ext === 'mdx') return 'markdown'
  if (m === 'text/csv' || m === 'text/tab-separated-values' || ext === 'csv' || ext === 'tsv') return 'csv'
  if (highlightLanguage(name, mime)) return 'code'
  return 'text'
}

const LANG_BY_EXT: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  json: 'json',
  jsonc: 'json',
  py: 'python',
  rb: 'ruby',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  php: 'php',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  sql: 'sql',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'ini',
  ini: 'ini',
  xml: 'xml',
  html: 'xml',
  htm: 'xml',
  svg: 'xml',
  css: 'css',
  scss: 'scss',
  less: 'less',
  lua: 'lua',
  r: 'r',
  diff: 'diff',
  patch: 'diff',
  graphql: 'graphql',
  dockerfile: 'dockerfile',
  makefile: 'makefile',
}

/** The highlight.js language for a file, or null for plain text. */
export function highlightLanguage(name: string, mime: string): string | null {
  const base = name.toLowerCase().split(/[\\/]/).pop() ?? ''
  const ext = base.includes('.') ? base.split('.').pop()! : base
  if (LANG_BY_EXT[ext]) return LANG_BY_EXT[ext]!
  if (/json/i.test(mime)) return 'json'
  return null
}

/**
 * RFC 4180 CSV (quotes, doubled quotes, newlines in quoted fields, CRLF or LF rows); a leading BOM
 * is not part of the first cell. Tab-separated when `delimiter` is a tab.
 */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  for (; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"' && cell === '') quoted = true
    else if (c === delimiter) {
      row.push(cell)
      cell = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
    } else cell += c
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  return rows
}

/** Why Send is locked for these attachments on this model (null when they can all go). */
export function sendBlocker(attachments: readonly Pick<PendingAttachment, 'kind'>[], model: ModelAttachmentInfo | undefined): string | null {
  const n = attachments.filter((a) => supportIssue(a, model) !== null).length
  if (n === 0) return null
  return `${n === 1 ? 'One attachment' : `${n} attachments`} cannot go to this model: remove ${n === 1 ? 'it' : 'them'} or switch model.`
}

/** The kinds a model must accept for these attachments (text is always fine: it is inlined). */
export function neededKinds(attachments: readonly Pick<PendingAttachment, 'kind'>[]): FileKind[] {
  const kinds = new Set<FileKind>()
  for (const a of attachments) if (a.kind === 'image' || a.kind === 'pdf') kinds.add(a.kind)
  return [...kinds]
}

/** True for a text part that holds an inlined file (copying a message's text leaves those out). */
export function isInlinedAttachmentPart(part: { id: string; type: string; text?: string }): boolean {
  return part.type === 'text' && typeof part.text === 'string' && parseTextPart({ id: part.id, text: part.text }) !== null
}
