/**
 * File type detection that does not lie. The bytes decide, never the extension alone: a file is text
 * only if it decodes as UTF-8 (BOM allowed) with no NUL; images and PDFs only if their magic bytes say
 * so. The seed client trusted the extension and inlined unknown binaries as mojibake (retry-lessons
 * bug 6); here an unknown binary stays binary. Pure: no Node built-ins, runs in the renderer.
 */

export type FileKind = 'text' | 'image' | 'pdf' | 'binary'

/** What a file really is, and the mime to send it with. */
export interface DetectedFileType {
  kind: FileKind
  mime: string
}

/** The parts of a provider-list model entry that say which attachments it takes. */
export interface ModelAttachmentInfo {
  attachment?: boolean
  modalities?: { input?: string[] }
}

const OCTET = 'application/octet-stream'

// Text types by extension. Only used once the bytes have proven to be UTF-8 text.
const TEXT_EXT: Record<string, string> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  ini: 'text/plain',
  cfg: 'text/plain',
  conf: 'text/plain',
  env: 'text/plain',
  gitignore: 'text/plain',
  lock: 'text/plain',
  properties: 'text/plain',
  diff: 'text/x-diff',
  patch: 'text/x-diff',
  md: 'text/markdown',
  markdown: 'text/markdown',
  mdx: 'text/markdown',
  rst: 'text/x-rst',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  jsonc: 'application/json',
  jsonl: 'application/jsonl',
  ndjson: 'application/x-ndjson',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  scss: 'text/x-scss',
  less: 'text/x-less',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  jsx: 'text/javascript',
  ts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  mts: 'text/x-typescript',
  cts: 'text/x-typescript',
  py: 'text/x-python',
  rb: 'text/x-ruby',
  go: 'text/x-go',
  rs: 'text/x-rust',
  java: 'text/x-java',
  kt: 'text/x-kotlin',
  swift: 'text/x-swift',
  c: 'text/x-c',
  h: 'text/x-c',
  cc: 'text/x-c++',
  cpp: 'text/x-c++',
  hpp: 'text/x-c++',
  cs: 'text/x-csharp',
  php: 'text/x-php',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  zsh: 'text/x-shellscript',
  ps1: 'text/plain',
  sql: 'application/sql',
  lua: 'text/x-lua',
  r: 'text/x-r',
  scala: 'text/x-scala',
  dart: 'text/x-dart',
  vue: 'text/plain',
  svelte: 'text/plain',
  tex: 'text/x-tex',
  graphql: 'application/graphql',
  proto: 'text/plain',
  dockerfile: 'text/plain',
  makefile: 'text/plain',
  srt: 'text/plain',
  vtt: 'text/vtt',
  ics: 'text/calendar',
}

// Binary types by extension, for a file whose magic Retake does not sniff. Never image/* or pdf: those
// kinds are only granted by magic bytes, so a renamed file is not sent to a model as an image.
const BINARY_EXT: Record<string, string> = {
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  sqlite: 'application/vnd.sqlite3',
  db: 'application/vnd.sqlite3',
  wasm: 'application/wasm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  exe: 'application/vnd.microsoft.portable-executable',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

function startsWith(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false
  for (let i = 0; i < sig.length; i++) if (bytes[at + i] !== sig[i]) return false
  return true
}

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0))

/** The magic-byte signature of a file, if it is one Retake recognizes. */
export function sniffMagic(bytes: Uint8Array): DetectedFileType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'image', mime: 'image/png' }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'image', mime: 'image/jpeg' }
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return { kind: 'image', mime: 'image/gif' }
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return { kind: 'image', mime: 'image/webp' }
  if (startsWith(bytes, ascii('%PDF-'))) return { kind: 'pdf', mime: 'application/pdf' }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return { kind: 'binary', mime: 'application/zip' }
  }
  if (startsWith(bytes, ascii('SQLite format 3\0'))) return { kind: 'binary', mime: 'application/vnd.sqlite3' }
  return null
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** True when the bytes are valid UTF-8 (a BOM is allowed) and contain no NUL. */
export function isUtf8Text(bytes: Uint8Array): boolean {
  // UTF-16/32 with a BOM: FF FE / FE FF are not valid UTF-8 anyway, but say so explicitly.
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return false
  if (bytes.indexOf(0) !== -1) return false
  try {
    utf8.decode(bytes)
    return true
  } catch {
    return false
  }
}

/** True for mimes whose content is text (text/*, json, yaml, xml, csv, markdown, scripts…). */
export function isTextualMime(mime: string | undefined): boolean {
  if (!mime) return false
  const m = mime.toLowerCase().split(';')[0]!.trim()
  if (m.startsWith('text/')) return true
  if (m.endsWith('+json') || m.endsWith('+xml') || m.endsWith('+yaml')) return true
  return /^application\/(json|jsonl|x-ndjson|ld\+json|xml|yaml|x-yaml|toml|sql|graphql|javascript|x-javascript|typescript|x-typescript|x-sh|x-shellscript|x-httpd-php|csv|markdown)$/.test(
    m,
  )
}

function extensionOf(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').toLowerCase()
  const dot = base.lastIndexOf('.')
  // Dotless names like "Makefile" or "Dockerfile" are looked up whole; ".env" by what follows the dot.
  return dot === -1 ? base : base.slice(dot + 1)
}

/** What a file really is, from its bytes first, then its name, then the declared mime. */
export function detectFileType(name: string, bytes: Uint8Array, declaredMime?: string): DetectedFileType {
  const magic = sniffMagic(bytes)
  if (magic) return magic
  const ext = extensionOf(name)
  const declared = declaredMime?.trim() || undefined
  if (isUtf8Text(bytes)) {
    // A textual declared mime is kept (it is what the sender meant); otherwise the extension decides.
    if (declared && isTextualMime(declared)) return { kind: 'text', mime: declared }
    return { kind: 'text', mime: TEXT_EXT[ext] ?? 'text/plain' }
  }
  // Not text and no known magic: binary. Keep a declared binary mime, but never one that would make
  // opencode send these bytes as an image, a PDF or text.
  if (declared && !isTextualMime(declared) && !/^image\//i.test(declared) && !/^application\/pdf$/i.test(declared)) {
    return { kind: 'binary', mime: declared }
  }
  return { kind: 'binary', mime: BINARY_EXT[ext] ?? OCTET }
}

/**
 * Why a model cannot take a file of this kind, or null when it can. Text is always fine (Retake inlines
 * it). Images and PDFs need the modality in the model's `modalities.input`; a model without a
 * modalities list is trusted on its `attachment` flag. Binaries reach no model usefully.
 */
export function checkModelSupport(kind: FileKind, model: ModelAttachmentInfo): null | { reason: string } {
  if (kind === 'text') return null
  if (kind === 'binary') {
    return { reason: 'Binary files cannot be sent to a model; only text files, images and PDFs can.' }
  }
  const input = model.modalities?.input
  const supported = input ? input.includes(kind) : model.attachment === true
  if (supported) return null
  return {
    reason: kind === 'image' ? 'The selected model does not accept images.' : 'The selected model does not accept PDF files.',
  }
}
