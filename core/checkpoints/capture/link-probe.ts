// Which folder above a path is a symlink now. A capture never walks into a symlink, so every path
// a checkpoint knows had real folders above it; if one of them is a link today, reading or writing
// the path would go wherever that link points — out of the root, or (worse, since no root check
// catches it) to another place inside the project. Plans and captures ask this probe first.
import fs from 'node:fs'
import path from 'node:path'
import { os } from '../store/os-names'

type DirState = 'dir' | 'link' | 'none'

export class LinkProbe {
  /** Per folder key: what it is now. Only folders proven real are kept across calls. */
  private readonly seen = new Map<string, DirState>()
  /**
   * Folders that are real folders, and every folder above them too (as `seen` holds them): the
   * paths of one folder ask once, not once per path and per folder above it (an install's plan
   * asked ~20,000 times, each a new string to hash).
   */
  private readonly real = new Set<string>()
  /** reachable()'s answers by folder (a `still` probe only). */
  private readonly reach = new Map<string, boolean>()

  /**
   * `still`: nothing is created while this probe is used (one targeted capture), so a missing
   * folder is remembered too: the thousands of paths of a tree a restore removed are then known
   * absent from their top folder's lstat, without one each.
   */
  constructor(
    private readonly rootAbs: string,
    private readonly still = false,
  ) {}

  /**
   * Can `key` exist as it was recorded? False when a folder above it is a link now or missing.
   * Kept per folder when `still` (nothing changes meanwhile): a restore's post-capture asks for each
   * of an install's thousands of paths, a few hundred folders.
   */
  reachable(key: string): boolean {
    const last = key.lastIndexOf('/')
    if (last === -1) return true
    const folder = key.slice(0, last)
    let ok = this.still ? this.reach.get(folder) : undefined
    if (ok === undefined) {
      // From the top down, as a path resolves: below a missing folder nothing is looked at.
      ok = this.reachable(folder) && this.state(folder) === 'dir'
      if (this.still) this.reach.set(folder, ok)
    }
    return ok
  }

  /** The key of the topmost folder above `key` that is a symlink now, or null. */
  linkedAncestor(key: string): string | null {
    const last = key.lastIndexOf('/')
    if (last === -1) return null
    const folder = key.slice(0, last)
    if (this.real.has(folder)) return null
    let at = key.indexOf('/')
    while (at !== -1) {
      const dir = key.slice(0, at)
      const state = this.state(dir)
      if (state === 'link') return dir
      if (state === 'none') return null // nothing below exists: writes create real folders
      at = key.indexOf('/', at + 1)
    }
    this.real.add(folder)
    return null
  }

  private state(dir: string): DirState {
    const hit = this.seen.get(dir)
    if (hit) return hit
    let st: fs.Stats
    try {
      st = fs.lstatSync(os(path.join(this.rootAbs, ...dir.split('/'))))
    } catch {
      if (this.still) this.seen.set(dir, 'none')
      return 'none'
    }
    const s: DirState = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'none'
    // Only real folders are remembered: a link or a missing folder may be replaced by the steps.
    if (s === 'dir' || (this.still && s === 'none')) this.seen.set(dir, s)
    return s
  }
}
