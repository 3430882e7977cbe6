/** Where Retake's own files are: the app root (node_modules, dist) and the pinned versions. */
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

export function findAppRoot(from: string): string {
  let dir = resolve(from)
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }
      if (pkg.name === 'retake') return dir
    } catch {
      // keep walking up
    }
    dir = dirname(dir)
  }
  throw new Error(`Retake's package.json not found above ${from}`)
}

export function readVersions(appRoot: string): { version: string; opencodeVersion: string } {
  const pkg = JSON.parse(readFileSync(join(appRoot, 'package.json'), 'utf8')) as {
    version: string
    dependencies?: Record<string, string>
    retake?: { opencodeVersion?: string }
  }
  return { version: pkg.version, opencodeVersion: pkg.retake?.opencodeVersion ?? pkg.dependencies?.['opencode-ai'] ?? '' }
}
