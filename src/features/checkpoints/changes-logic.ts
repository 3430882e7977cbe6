/**
 * The Changes panel's logic (pure): the session's files changed, turn by turn, from the checkpoints;
 * the folder tree they stand in, narrowed by a filter; and a unified diff read into rows for the
 * unified and the side-by-side views.
 */
import type { ChangeItem, TurnCheckpoint } from '../../../shared/ipc-contract'

/** One file and every turn that changed it, oldest first. */
export interface ChangedFile {
  key: string
  root: string
  path: string
  turns: Array<{ messageID: string; change: ChangeItem['change']; added: number; removed: number; binary: boolean }>
  added: number
  removed: number
}

export const fileKey = (c: { root: string; path: string }) => `${c.root}\n${c.path}`

/** The files changed by the given turns (oldest first in the result's `turns`), sorted by path. */
export function changedFiles(turns: readonly TurnCheckpoint[]): ChangedFile[] {
  const byKey = new Map<string, ChangedFile>()
  for (const t of [...turns].sort((a, b) => a.createdAt - b.createdAt)) {
    for (const c of t.changes) {
      const key = fileKey(c)
      const f = byKey.get(key) ?? { key, root: c.root, path: c.path, turns: [], added: 0, removed: 0 }
      f.turns.push({ messageID: t.messageID, change: c.change, added: c.added, removed: c.removed, binary: c.binary })
      f.added += c.added
      f.removed += c.removed
      byKey.set(key, f)
    }
  }
  // A folder a turn created or removed is listed by the checkpoint beside its files: the tree shows it as a folder.
  const all = [...byKey.values()]
  const folders = new Set(
    all.flatMap((f) =>
      f.path
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => `${f.root}\n${parts.slice(0, i + 1).join('/')}`),
    ),
  )
  return all.filter((f) => !folders.has(f.key)).sort((a, b) => a.path.localeCompare(b.path) || a.root.localeCompare(b.root))
}

export interface TreeFolder {
  name: string
  /** The folder's path below its root ('' for the root). */
  path: string
  folders: TreeFolder[]
  files: ChangedFile[]
}

/** The files (those whose path contains the filter, ignoring case) as a folder tree; one-child folders are folded ("src/app"). */
export function fileTree(files: readonly ChangedFile[], filter = ''): TreeFolder {
  const root: TreeFolder = { name: '', path: '', folders: [], files: [] }
  const f = filter.trim().toLowerCase()
  for (const file of files) {
    if (f && !file.path.toLowerCase().includes(f)) continue
    const parts = file.path.split('/')
    let node = root
    for (const name of parts.slice(0, -1)) {
      let next = node.folders.find((d) => d.name === name)
      if (!next) {
        next = { name, path: node.path ? `${node.path}/${name}` : name, folders: [], files: [] }
        node.folders.push(next)
      }
      node = next
    }
    node.files.push(file)
  }
  return fold(root)
}

function fold(node: TreeFolder): TreeFolder {
  node.folders = node.folders.map(fold).sort((a, b) => a.name.localeCompare(b.name))
  if (node.name && node.files.length === 0 && node.folders.length === 1) {
    const only = node.folders[0]!
    return { ...only, name: `${node.name}/${only.name}` }
  }
  return node
}

export interface DiffRow {
  kind: 'hunk' | 'context' | 'add' | 'del'
  text: string
  oldNo?: number
  newNo?: number
}

/** A unified diff's lines as rows with their line numbers; the file headers (---/+++) are dropped. */
export function diffRows(diff: string): DiffRow[] {
  const rows: DiffRow[] = []
  let oldNo = 0
  let newNo = 0
  for (const line of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line)
    if (hunk) {
      oldNo = Number(hunk[1])
      newNo = Number(hunk[2])
      rows.push({ kind: 'hunk', text: line })
    } else if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('\\') || (line === '' && rows.length === 0)) continue
    else if (line.startsWith('+')) rows.push({ kind: 'add', text: line.slice(1), newNo: newNo++ })
    else if (line.startsWith('-')) rows.push({ kind: 'del', text: line.slice(1), oldNo: oldNo++ })
    else if (rows.length > 0) rows.push({ kind: 'context', text: line.slice(1), oldNo: oldNo++, newNo: newNo++ })
  }
  // The split('\n') of a diff ending in a newline leaves one empty context row at the end.
  const last = rows.at(-1)
  if (last?.kind === 'context' && last.text === '' && diff.endsWith('\n')) rows.pop()
  return rows
}

export type SplitRow = { kind: 'hunk'; text: string } | { kind: 'pair'; left?: DiffRow; right?: DiffRow }

/** Side by side: a run of deletions beside the run of additions that replaces it; context on both sides. */
export function splitRows(rows: readonly DiffRow[]): SplitRow[] {
  const out: SplitRow[] = []
  for (let i = 0; i < rows.length;) {
    const r = rows[i]!
    if (r.kind === 'hunk') {
      out.push({ kind: 'hunk', text: r.text })
      i++
    } else if (r.kind === 'context') {
      out.push({ kind: 'pair', left: r, right: r })
      i++
    } else {
      const dels: DiffRow[] = []
      const adds: DiffRow[] = []
      while (rows[i]?.kind === 'del') dels.push(rows[i++]!)
      while (rows[i]?.kind === 'add') adds.push(rows[i++]!)
      for (let k = 0; k < Math.max(dels.length, adds.length); k++) out.push({ kind: 'pair', left: dels[k], right: adds[k] })
    }
  }
  return out
}
