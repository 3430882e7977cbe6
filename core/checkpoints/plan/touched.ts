// The paths a restore touches, and which of them its pre-capture must read (restore.ts applyPlan).
import fs from 'node:fs'
import type { Engine } from '../capture/engine'
import { keyToAbs } from '../store/paths'
import { os } from '../store/os-names'
import { sameEntry } from '../store/snapshot-deltas'
import type { PlanAction } from '../types'

/**
 * Folders a write will create on its way (they are absent now and no step makes them: the path
 * above was kept as the user left it) are touched too, so the restore's undo removes them again.
 * Returns them (root id, key), for parent-folders.ts to make with their recorded mode.
 */
export function addMissingParents(e: Engine, todo: PlanAction[], touched: Map<string, Set<string>>): [string, string][] {
  const added: [string, string][] = []
  for (const a of todo) {
    if (!a.target) continue
    const rid = e.rootIdOf(a.root)
    const keys = touched.get(rid)!
    for (let at = a.path.lastIndexOf('/'); at > 0; at = a.path.lastIndexOf('/', at - 1)) {
      const dir = a.path.slice(0, at)
      if (keys.has(dir) || fs.existsSync(os(keyToAbs(a.root, dir)))) break
      keys.add(dir)
      added.push([rid, dir])
    }
  }
  return added
}

/**
 * The paths the pre-capture must look at: all it touches except files the re-check just proved (by
 * their ctime, stat-proof.ts) to hold the head snapshot's own entry — what the capture would record
 * for them. The others are read by content, so the restore's undo puts back what was there.
 */
export function toRead(e: Engine, todo: PlanAction[], touched: Map<string, Set<string>>): Map<string, Set<string>> {
  const head = e.headState()
  const out = new Map([...touched].map(([rid, keys]) => [rid, new Set(keys)]))
  for (const a of todo) {
    if (a.actual?.ctimeMs === undefined) continue
    const rid = e.rootIdOf(a.root)
    if (sameEntry(head?.get(rid)?.get(a.path), a.actual)) out.get(rid)?.delete(a.path)
  }
  return out
}
