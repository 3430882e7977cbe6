// Folders inside a root that are mount points now, for plans and apply's re-check (PlanContext.mounts).
// A folder is one when its device differs from its parent's, or — a bind mount of a folder of the
// same file system shows the same device — when the process's mount table lists it (Linux:
// /proc/self/mountinfo; elsewhere the device alone tells).
import fs from 'node:fs'
import { mountPointsUnder } from '../capture/change-journal'
import { os } from '../store/os-names'
import { keyBelow, keyToAbs, parentKey } from '../store/paths'
import type { Candidate } from './plan-parts'
import type { RootRuntime } from '../store/roots'
import type { State } from '../store/snapshot-deltas'
import type { PlanAction } from '../types'

const MAYBE = { throwIfNoEntry: false } as const

/**
 * Which folders of one plan (or one re-check) became mount points since the checkpoint, asked once
 * per folder. `recorded`: the state the plan rolls back from (the last turn's seal, an undone
 * restore's post), asked only when a folder is a mount point now: one whose inode is the recorded
 * one was there at the checkpoint (a Btrfs subvolume, say) and is rolled back as any other folder.
 */
export class NewMounts {
  /** Per `root:folder`: its lstat (the root's stat), null when no folder is there. */
  private readonly stats = new Map<string, fs.Stats | null>()
  private readonly mounted = new Map<string, boolean>()
  private readonly listed = new Map<string, Set<string>>()

  constructor(private readonly recorded: () => State | null) {}

  /**
   * The topmost folder above `key` (or `key` itself, with `self`) that became a mount point since
   * the checkpoint, or null: a shared cache bind-mounted over a folder of the plan, a tmpfs. What
   * lies below it is another file system's: never written into or emptied.
   */
  above(root: RootRuntime, key: string, self: boolean): string | null {
    for (let at = key.indexOf('/'); ; at = key.indexOf('/', at + 1)) {
      if (at === -1 && !self) return null
      const dir = at === -1 ? key : key.slice(0, at)
      const m = this.isNew(root, dir)
      if (m) return dir
      if (m === undefined || at === -1) return null // not a folder: nothing below it exists
    }
  }

  /** True: a mount point since the checkpoint; false: a folder that is not; undefined: no folder there. */
  private isNew(root: RootRuntime, dir: string): boolean | undefined {
    const id = `${root.id}:${dir}`
    const known = this.mounted.get(id)
    if (known !== undefined) return known
    const st = this.folderStat(root, dir)
    if (!st) return undefined
    const parent = this.folderStat(root, parentKey(dir))
    let keys = this.listed.get(root.id)
    if (!keys) this.listed.set(root.id, (keys = mountKeysUnder(root.real)))
    let m = (parent !== null && st.dev !== parent.dev) || keys.has(dir)
    if (m) {
      const rec = this.recorded()?.get(root.id)?.get(dir)
      m = !(rec?.type === 'dir' && rec.ino === st.ino)
    }
    this.mounted.set(id, m)
    return m
  }

  private folderStat(root: RootRuntime, dir: string): fs.Stats | null {
    const id = `${root.id}:${dir}`
    let st = this.stats.get(id)
    if (st === undefined) {
      const got = dir === '' ? fs.statSync(os(root.abs), MAYBE) : fs.lstatSync(os(keyToAbs(root.abs, dir)), MAYBE)
      this.stats.set(id, (st = got?.isDirectory() ? got : null))
    }
    return st
  }
}

/** Mount points strictly below `rootReal` (a real path), as root-relative keys. Empty off Linux or unreadable. */
function mountKeysUnder(rootReal: string): Set<string> {
  if (process.platform !== 'linux') return new Set()
  return new Set(mountPointsUnder(rootReal).flatMap((p) => keyBelow(rootReal, p) ?? []))
}

/** Below a folder mounted over since the checkpoint: listed, never acted on. */
export const onAnotherFileSystem = (c: Candidate, mount: string): PlanAction => ({
  id: `${c.root.id}:${c.key}`,
  root: c.root.abs,
  path: c.key,
  kind: 'not-checkpointed',
  target: c.target,
  expected: c.expected,
  reason: `on another file system now (${mount} is a mount point since the checkpoint): left as it is`,
})
