/**
 * Choosing a project folder where there is no native dialog (browser mode): `~` expansion for typed
 * paths and a listing of one folder's subfolders for the picker to walk. Folder names only; the
 * token that reaches this already grants running commands as the user, so nothing new is exposed.
 */
import { readdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'

/** `~` and `~/…` are the user's home, as a shell would read them; other paths resolve as given. */
export function expandHome(path: string, home = homedir()): string {
  const p = path.trim()
  if (p === '~') return home
  if (p.startsWith('~/') || p.startsWith('~\\')) return join(home, p.slice(2))
  return resolve(p)
}

export interface FolderListing {
  path: string
  parent: string | null
  folders: { name: string; path: string; hidden: boolean; project: boolean }[]
  /** More subfolders than listed. */
  truncated: boolean
}

const MAX = 500
/** Marks of a folder people open as a project. */
const PROJECT_MARKS = ['.git', 'package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod', 'opencode.json']

export function listFolders(path: string | undefined, home = homedir()): FolderListing {
  const abs = path ? expandHome(path, home) : home
  if (!statSync(abs).isDirectory()) throw new Error(`${abs} is not a folder`)
  const entries = readdirSync(abs, { withFileTypes: true })
  const folders: FolderListing['folders'] = []
  for (const e of entries) {
    const full = join(abs, e.name)
    let isDir = e.isDirectory()
    if (e.isSymbolicLink()) {
      try {
        isDir = statSync(full).isDirectory()
      } catch {
        isDir = false
      }
    }
    if (!isDir) continue
    folders.push({ name: e.name, path: full, hidden: e.name.startsWith('.'), project: isProject(full) })
  }
  // Visible folders first, then by name (as a file manager lists them).
  folders.sort((a, b) => Number(a.hidden) - Number(b.hidden) || a.name.localeCompare(b.name))
  const parent = dirname(abs)
  return { path: abs, parent: parent === abs ? null : parent, folders: folders.slice(0, MAX), truncated: folders.length > MAX }
}

function isProject(dir: string): boolean {
  try {
    const names = new Set(readdirSync(dir))
    return PROJECT_MARKS.some((m) => names.has(m))
  } catch {
    return false
  }
}
