// A turn's files written out into another folder: "fork from this message" with its files checks
// out the project as that turn left it (its sealed after-state) in a folder of its own, so the
// forked session works there while the original session's files stay as they are.
import fs from 'node:fs'
import path from 'node:path'
import type { Engine } from '../capture/engine'
import { keyToAbs } from '../store/paths'
import { os } from '../store/os-names'
import { Records } from '../store/records'
import { CheckpointError, type TurnKey } from '../types'

export interface ExportResult {
  written: number
  /** Entries that could not be written out, with why (over the size cap, content missing). */
  skipped: { path: string; reason: string }[]
}

/**
 * Writes the project root's files as turn `key` left them into `target` (an empty folder).
 * Only what the checkpoint covered is there: ignored files (node_modules, build output) are not.
 */
export function exportTurnFiles(e: Engine, key: TurnKey, rootAbs: string, target: string): ExportResult {
  e.assertOpen()
  const t = e.records.turns.get(Records.key(key))
  if (!t?.post) throw new CheckpointError('EUNKNOWN_TURN', 'this turn has no sealed checkpoint of the files')
  const state = e.snaps.state(t.post)
  const root = e.roots.find((r) => r.abs === rootAbs) ?? e.roots.find((r) => !r.shared)
  const entries = root ? state?.get(root.id) : undefined
  if (!entries) throw new CheckpointError('EUNKNOWN_TURN', 'the checkpoint of this turn is missing')
  const out: ExportResult = { written: 0, skipped: [] }
  const dirs: { abs: string; mode: number }[] = []
  // Sorted keys put every folder before what it holds.
  for (const k of [...entries.keys()].sort()) {
    const en = entries.get(k)!
    const abs = keyToAbs(target, k)
    if (en.type === 'dir') {
      fs.mkdirSync(os(abs), { recursive: true })
      dirs.push({ abs, mode: en.mode })
      continue
    }
    fs.mkdirSync(os(path.dirname(abs)), { recursive: true })
    if (en.type === 'symlink' && en.link !== undefined) {
      fs.symlinkSync(en.link, os(abs))
    } else if (en.type === 'file' && en.hash) {
      const data = e.blobs.read(en.hash)
      if (!data) {
        out.skipped.push({ path: k, reason: 'its content is missing from the store' })
        continue
      }
      fs.writeFileSync(os(abs), data, { mode: en.mode })
      fs.chmodSync(os(abs), en.mode)
      fs.utimesSync(os(abs), new Date(en.mtimeMs), new Date(en.mtimeMs))
    } else {
      out.skipped.push({ path: k, reason: en.type === 'oversize' ? 'over the size limit (never checkpointed)' : `not a file (${en.type})` })
      continue
    }
    out.written++
  }
  // Folder modes last, deepest first: a read-only folder must not stop its own children.
  for (const d of dirs.reverse()) fs.chmodSync(os(d.abs), d.mode)
  return out
}
