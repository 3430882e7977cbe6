/**
 * highlight.js on demand: its core and each grammar are loaded the first time a code block (or an
 * attachment) names that language, so the first load carries none of them (150 kB of the bundle
 * before). Until a grammar is there the code shows as escaped plain text; when it arrives, the
 * `version` goes up and subscribers (the Markdown component, the attachment viewer) render again.
 * The languages are those of highlight.js's "common" build, which Retake highlighted before.
 */
import type { HLJSApi, LanguageFn } from 'highlight.js'

type Loader = () => Promise<{ default: LanguageFn }>

// One literal import() per grammar: the bundler can only split what it can see.
const GRAMMARS: Record<string, Loader> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  less: () => import('highlight.js/lib/languages/less'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  'php-template': () => import('highlight.js/lib/languages/php-template'),
  plaintext: () => import('highlight.js/lib/languages/plaintext'),
  python: () => import('highlight.js/lib/languages/python'),
  'python-repl': () => import('highlight.js/lib/languages/python-repl'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  vbnet: () => import('highlight.js/lib/languages/vbnet'),
  wasm: () => import('highlight.js/lib/languages/wasm'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
}

// The grammars' own aliases (as highlight.js 11.12 registers them), so a fence's name finds its
// grammar before that grammar is loaded.
const ALIASES: Record<string, string> = {
  html: 'xml',
  xhtml: 'xml',
  rss: 'xml',
  atom: 'xml',
  xjb: 'xml',
  xsd: 'xml',
  xsl: 'xml',
  plist: 'xml',
  wsf: 'xml',
  svg: 'xml',
  sh: 'bash',
  zsh: 'bash',
  h: 'c',
  cc: 'cpp',
  'c++': 'cpp',
  'h++': 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  cxx: 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  md: 'markdown',
  mkdown: 'markdown',
  mkd: 'markdown',
  patch: 'diff',
  rb: 'ruby',
  gemspec: 'ruby',
  podspec: 'ruby',
  thor: 'ruby',
  irb: 'ruby',
  golang: 'go',
  gql: 'graphql',
  toml: 'ini',
  jsp: 'java',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsonc: 'json',
  json5: 'json',
  kt: 'kotlin',
  kts: 'kotlin',
  ktm: 'kotlin',
  ktx: 'kotlin',
  pluto: 'lua',
  mk: 'makefile',
  mak: 'makefile',
  make: 'makefile',
  pl: 'perl',
  pm: 'perl',
  mm: 'objectivec',
  objc: 'objectivec',
  'obj-c': 'objectivec',
  'obj-c++': 'objectivec',
  'objective-c++': 'objectivec',
  text: 'plaintext',
  txt: 'plaintext',
  py: 'python',
  gyp: 'python',
  ipython: 'python',
  pycon: 'python-repl',
  rs: 'rust',
  console: 'shell',
  shellsession: 'shell',
  yml: 'yaml',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  vb: 'vbnet',
}

let core: HLJSApi | null = null
let corePromise: Promise<HLJSApi> | null = null
const requested = new Map<string, Promise<void>>()
const listeners = new Set<() => void>()
let version = 0

/** The grammar a fence or file names (`ts` → `typescript`), or null when Retake has none for it. */
export function grammarName(language: string): string | null {
  const key = language.toLowerCase()
  if (key in GRAMMARS) return key
  return ALIASES[key] ?? null
}

function loadCore(): Promise<HLJSApi> {
  corePromise ??= import('highlight.js/lib/core').then((m) => (core = m.default))
  return corePromise
}

/** Loads a grammar (and the core) once; resolves when it is registered, whatever the outcome. */
export function loadGrammar(language: string): Promise<void> {
  const name = grammarName(language)
  if (!name) return Promise.resolve()
  let p = requested.get(name)
  if (!p) {
    p = Promise.all([loadCore(), GRAMMARS[name]!()])
      .then(([hljs, grammar]) => {
        hljs.registerLanguage(name, grammar.default)
        version++
        for (const l of listeners) l()
      })
      // A chunk that fails to load leaves the code as plain text (it is still shown and copyable).
      .catch(() => {})
    requested.set(name, p)
  }
  return p
}

/**
 * The highlighted HTML of `code`, or null when it cannot be highlighted now: no grammar for the
 * language (stays plain), or the grammar is still loading (asked for; `version` will change).
 */
export function highlightCode(code: string, language: string): string | null {
  const name = grammarName(language)
  if (!name) return null
  if (!core?.getLanguage(name)) {
    void loadGrammar(name)
    return null
  }
  try {
    return core.highlight(code, { language: name, ignoreIllegals: true }).value
  } catch {
    return null
  }
}

/** True while `language` has a grammar that is not registered yet. */
export function grammarPending(language: string): boolean {
  const name = grammarName(language)
  return name !== null && !core?.getLanguage(name)
}

/** For useSyncExternalStore: bumps each time a grammar arrives. */
export function subscribeGrammars(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
export const grammarVersion = () => version
