// What a scan leaves out: built-ins (.git/, the engine's own store and temp files), user patterns,
// and .gitignore files found while walking (via the `ignore` library, gitignore semantics). Each
// .gitignore applies to its own folder and below; deeper files may re-include with `!pattern`.
import fs from 'node:fs'
import path from 'node:path'
import ignore from 'ignore'
import type { Ignore } from 'ignore'
import { TEMP_RE } from './fsutil'
import { os } from './os-names'

export const BUILTIN_EXCLUDES = ['.git/', '.hg/', '.svn/', '.DS_Store']
// The same built-ins as plain names: with no other rules in force, a Set lookup replaces the
// gitignore matcher on every path of a walk.
const BUILTIN_DIRS = new Set(['.git', '.hg', '.svn'])
const BUILTIN_FILES = new Set(['.DS_Store'])

interface Level {
  /** Key of the folder holding the rules ('' for the root). */
  base: string
  ig: Ignore
  text: string
}

/**
 * Rule levels kept from one walk of a root to the next: an unchanged .gitignore keeps its matcher,
 * so a walk does not compile every .gitignore of the tree again.
 */
export class LevelCache {
  private readonly byKey = new Map<string, Level>()

  level(key: string, base: string, text: string, make: () => Ignore): Level {
    const had = this.byKey.get(key)
    if (had && had.text === text) return had
    const level = { base, ig: make(), text }
    this.byKey.set(key, level)
    return level
  }
}

export class ExcludeRules {
  private readonly levels: Level[]
  private readonly extraAbs: string[]
  private readonly onlyBuiltins: boolean

  constructor(
    private readonly rootAbs: string,
    userPatterns: string[],
    private readonly gitignore: boolean,
    /** Absolute folders never scanned (the store itself when it lives under a root). */
    excludedAbs: string[],
    private readonly cache: LevelCache = new LevelCache(),
  ) {
    const base = cache.level('\0user', '', userPatterns.join('\n'), () => ignore().add(BUILTIN_EXCLUDES).add(userPatterns))
    this.levels = [base]
    this.onlyBuiltins = userPatterns.length === 0
    this.extraAbs = excludedAbs.map((p) => path.resolve(p))
    if (gitignore) this.loadGitignore('')
  }

  /**
   * Called by the walker when it enters a folder (told whether the folder holds a .gitignore, so
   * folders without one cost no failed open); returns the number of levels pushed.
   */
  enter(dirKey: string, hasGitignore: boolean): number {
    if (!this.gitignore || dirKey === '' || !hasGitignore) return 0
    return this.loadGitignore(dirKey) ? 1 : 0
  }
  leave(pushed: number): void {
    for (let i = 0; i < pushed; i++) this.levels.pop()
  }

  private loadGitignore(dirKey: string): boolean {
    const file = path.join(this.rootAbs, ...dirKey.split('/').filter(Boolean), '.gitignore')
    let text: string
    try {
      text = fs.readFileSync(os(file), 'utf8')
    } catch {
      return false
    }
    this.levels.push(this.cache.level(dirKey, dirKey, text, () => ignore().add(text)))
    return true
  }

  /**
   * Whether `key` is excluded with the rules of every ancestor folder in force. Judged from scratch:
   * the walker knows its ancestors' rules; a watcher event or a path found out of order does not.
   * Every ancestor must be included, its .gitignore loaded.
   */
  excludedDeep(key: string, isDir: boolean): boolean {
    const parts = key.split('/')
    let pushed = 0
    try {
      let dirKey = ''
      for (let i = 0; i < parts.length - 1; i++) {
        dirKey = dirKey ? `${dirKey}/${parts[i]}` : parts[i]!
        const abs = path.join(this.rootAbs, ...dirKey.split('/'))
        if (this.excluded(dirKey, true, abs)) return true
        pushed += this.enter(dirKey, fs.existsSync(os(path.join(abs, '.gitignore'))))
      }
      return this.excluded(key, isDir, path.join(this.rootAbs, ...parts))
    } finally {
      this.leave(pushed)
    }
  }

  /** `abs` is only looked at for folders; `name` (the last part of `key`) saves a slice. */
  excluded(key: string, isDir: boolean, abs: string, name = key.slice(key.lastIndexOf('/') + 1)): boolean {
    if (TEMP_RE.test(name)) return true
    if (isDir && this.extraAbs.some((p) => p === abs)) return true
    if (this.onlyBuiltins && this.levels.length === 1) return isDir ? BUILTIN_DIRS.has(name) : BUILTIN_FILES.has(name)
    return excludedByLevels(this.levels, key, isDir)
  }
}

/**
 * The built-in patterns alone, as the `ignore` matcher would judge one path relative to the root
 * (folders end with '/'), by name, cheaper than the matcher for the thousands of paths a restore
 * asks about (coverage.ts). Paths below an excluded folder are the caller's
 * business, as with the matcher's own result for a parent.
 */
export const BUILTIN_MATCHER = {
  test(rel: string): { ignored: boolean; unignored: boolean } {
    const isDir = rel.endsWith('/')
    const p = isDir ? rel.slice(0, -1) : rel
    const name = p.slice(p.lastIndexOf('/') + 1)
    return { ignored: BUILTIN_FILES.has(name) || (isDir && BUILTIN_DIRS.has(name)), unignored: false }
  },
} as unknown as Ignore

/**
 * gitignore semantics over stacked rule levels (outermost first): each level judges the path
 * relative to its folder, a deeper `!pattern` re-includes. Also used to judge a past capture's
 * rules (coverage.ts).
 */
export function excludedByLevels(levels: readonly { base: string; ig: Ignore }[], key: string, isDir: boolean): boolean {
  let ignored = false
  for (const level of levels) {
    let rel = level.base === '' ? key : key.startsWith(level.base + '/') ? key.slice(level.base.length + 1) : null
    if (rel === null) continue
    if (isDir) rel += '/'
    const r = level.ig.test(rel)
    if (r.ignored) ignored = true
    else if (r.unignored) ignored = false
  }
  return ignored
}
