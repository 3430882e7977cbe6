// The folders a store covers, resolved once at open: id (stable hash of the normalized path),
// real path (the boundary every restore target is checked against), exclude rules.
import fs from 'node:fs'
import path from 'node:path'
import { sha256 } from './blob-io'
import { ExcludeRules, LevelCache } from './excludes'
import { isInside, normalizeRootPath } from './paths'
import type { RootConfig } from '../types'

export interface RootRuntime {
  id: string
  abs: string
  real: string
  shared: boolean
  caseInsensitive: boolean
  config: RootConfig
  rules(): ExcludeRules
}

export function rootId(abs: string): string {
  const norm = process.platform === 'win32' || process.platform === 'darwin' ? abs.toLowerCase() : abs
  return sha256(norm).slice(0, 16)
}

export function resolveRoots(configs: RootConfig[], storeDir: string, warnings: string[]): RootRuntime[] {
  const seen = new Set<string>()
  const out: RootRuntime[] = []
  const storeAbs = path.resolve(storeDir)
  for (const c of configs) {
    const abs = normalizeRootPath(c.path)
    const id = rootId(abs)
    if (seen.has(id)) continue
    seen.add(id)
    let real: string
    let missing = false
    try {
      real = fs.realpathSync(abs)
      if (!fs.statSync(real).isDirectory()) throw new Error('not a folder')
    } catch {
      // A volume that is gone (unplugged, deleted) is neither recreated nor scanned nor restored:
      // treating it as empty would make every file in it look deleted.
      real = abs
      missing = true
      warnings.push(`root ${abs} is missing; it is skipped until it exists again`)
    }
    const ci = c.caseInsensitive ?? (process.platform === 'darwin' || process.platform === 'win32')
    // The store must never checkpoint itself; when it lives under a root it is excluded.
    const excludedAbs = isInside(abs, storeAbs) ? [storeAbs] : []
    // Kept for the store's life: unchanged .gitignore files keep their matchers between walks.
    const levels = new LevelCache()
    out.push({
      id,
      abs,
      real,
      shared: c.shared === true || missing,
      caseInsensitive: ci,
      config: c,
      rules: () => new ExcludeRules(abs, c.excludes ?? [], c.gitignore !== false, excludedAbs, levels),
    })
  }
  return out
}
