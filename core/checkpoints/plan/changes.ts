// changes(turn): every path a turn changed, for the UI: added / modified / deleted / mode / type,
// with +/- line counts for text. Binary files and files over the cap are listed too.
import type { Engine } from '../capture/engine'
import { contentChanged } from '../capture/current'
import { diffBuffers, MAX_DIFF_BYTES } from './diff'
import { parseTurnKey } from '../store/paths'
import { Records } from '../store/records'
import type { ChangeItem, Entry, TurnKeyInput } from '../types'

export async function turnChanges(e: Engine, input: TurnKeyInput): Promise<ChangeItem[]> {
  e.assertOpen()
  const key = parseTurnKey(input)
  const t = e.records.turns.get(Records.key(key))
  if (!t || !t.post) return []
  return snapshotChanges(e, t.pre, t.post)
}

/**
 * What undoing a restore would change: from the files it left to the files it replaced. For the
 * restore a retake made, that is what the replaced attempt's whole branch had done on disk.
 */
export async function restoreChanges(e: Engine, restoreId: string): Promise<ChangeItem[]> {
  e.assertOpen()
  const r = e.records.restores.get(restoreId)
  return r ? snapshotChanges(e, r.post, r.pre) : []
}

function snapshotChanges(e: Engine, preId: string, postId: string): ChangeItem[] {
  const before = e.snaps.state(preId)
  const after = e.snaps.state(postId)
  if (!before || !after) return []
  // Every entry read at once, with no await in between: a restore that runs meanwhile may commit
  // into the head's state in place (snapshots.ts), and entries themselves are never changed.
  const pairs: { root: string; k: string; x: Entry | undefined; y: Entry | undefined }[] = []
  for (const root of e.roots) {
    if (root.shared) continue
    const b = before.get(root.id) ?? new Map<string, Entry>()
    const a = after.get(root.id) ?? new Map<string, Entry>()
    const keys = new Set([...b.keys(), ...a.keys()])
    for (const k of [...keys].sort()) {
      const x = b.get(k)
      const y = a.get(k)
      if (contentChanged(x, y)) pairs.push({ root: root.abs, k, x, y })
    }
  }
  const out: ChangeItem[] = []
  for (const { root, k, x, y } of pairs) {
    const item: ChangeItem = { root, path: k, change: 'modified', binary: false, added: 0, removed: 0 }
    if (x?.type === 'oversize' || y?.type === 'oversize') item.change = 'not-checkpointed'
    else if (!x) item.change = 'added'
    else if (!y) item.change = 'deleted'
    else if (x.type !== y.type) item.change = 'type'
    else if (x.type === 'file' && x.hash === y.hash) item.change = 'mode'
    if (item.change !== 'not-checkpointed' && item.change !== 'mode') {
      const d = diffBuffers(read(e, x), read(e, y), k)
      Object.assign(item, { binary: d.binary, added: d.added, removed: d.removed, ...(d.text !== undefined ? { diff: d.text } : {}) })
    }
    out.push(item)
  }
  return out
}

function read(e: Engine, en: Entry | undefined): Buffer | null {
  if (!en || en.type !== 'file' || !en.hash || en.size > MAX_DIFF_BYTES) return null
  return e.blobs.read(en.hash)
}
