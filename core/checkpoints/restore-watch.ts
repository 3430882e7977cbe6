// The change journal during a restore. Folders the restore removes stop being watched before its
// first delete: each delete in a watched folder queues an event for the watcher's thread to wake
// for, and removing a watched folder costs more again (~10–15 ms of an install's restore). Nothing
// the journal owes a capture is lost by it:
//  - the restore's own deletes are recorded by its post-capture (restore-run.ts commitRestore),
//    which becomes the head snapshot the next capture starts from;
//  - the removal of the top folder is seen by the watch of the folder above it, which stays;
//  - a folder that is still there afterwards (it held a file the turn did not make, or one the
//    user changed, and so was kept) may have changed unseen: the next capture walks in full and
//    watches afresh, as after a folder created since the subscription.
import fs from 'node:fs'
import type { ChangeWatcher } from './change-journal'
import type { Engine } from './engine'
import type { Step } from './journal'
import { os } from './os-names'
import { keyToAbs } from './paths'

export interface Unwatched {
  watcher: ChangeWatcher
  dirs: string[]
}

/** Unwatch the folders the steps remove, by root; resolves once the watchers have let them go. */
export async function unwatchRemovedFolders(e: Engine, steps: Step[]): Promise<Unwatched[]> {
  const byRoot = new Map<string, string[]>()
  for (const s of steps) {
    if (s.op !== 'rmdir') continue
    const root = e.rootById.get(s.root)
    if (!root || root.shared) continue
    let dirs = byRoot.get(s.root)
    if (!dirs) byRoot.set(s.root, (dirs = []))
    dirs.push(keyToAbs(root.abs, s.key))
  }
  const out: Unwatched[] = []
  for (const [rid, dirs] of byRoot) {
    const w = e.watchers.get(rid)
    if (!w?.unwatch || !w.healthy) continue
    // Kept even when no answer came in time: the worker may close those watches later still.
    await w.unwatch(dirs)
    out.push({ watcher: w, dirs })
  }
  return out
}

/** After the steps (even failed ones): a folder unwatched but still there makes the next capture walk. */
export function rewatchKept(list: Unwatched[]): void {
  for (const { watcher, dirs } of list) {
    if (dirs.some(stillThere)) watcher.dirCreated = true
  }
}

/** Any doubt counts as there (the cost of a wrong guess is one full walk). */
function stillThere(abs: string): boolean {
  try {
    return fs.lstatSync(os(abs), { throwIfNoEntry: false }) !== undefined
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOTDIR'
  }
}
