// A restore's deletes, run from inside each file's folder. Why: an install turn's restore deletes
// thousands of files a dozen folders deep, and each `lstat` and `unlink` given the absolute path
// walks every one of those folders again in the kernel; from inside the folder they resolve one
// name. Measured on 3,460 files of a real node_modules: 55 ms → 47 ms for the two calls per file
// (`rm -rf` of the same tree: 45 ms).
//
// The working folder is the process's, shared by everything in it, so the lane is held only while
// nothing else can run (restore-run.ts leaves it before any other step, before it waits on the
// delete pool, and when the steps end: delete-pool.test.ts looks from the event loop); it
// enters a folder by the real path the step's checks judged inside the root, and uses it only after
// confirming the process is there (a folder swapped for a link in between is never worked in).
import path from 'node:path'
import { hasRawBytes } from './os-names'

export class FolderLane {
  /** The working folder to return to; null: the lane is off (absolute paths throughout). */
  private readonly home: string | null
  /** The real path of the folder the process is in for the lane, or null when it is at home. */
  private inside: string | null = null
  /** The folder (as the steps name it) of the last path asked for, and what it resolved to. */
  private lastDir = ''
  private lastAt: string | null = null

  constructor(enabled = process.platform !== 'win32') {
    let home: string | null = null
    if (enabled) {
      try {
        home = process.cwd()
      } catch {
        // The process's working folder was removed: there is nowhere to return to.
      }
    }
    this.home = home
  }

  /**
   * What to hand to `fs` for `abs`: its name when the process is inside its folder (entered now if
   * need be), else `abs` itself. `reals`: the real paths of folders the steps judged inside their
   * root (StepEnv.parents); a folder not among them is never entered.
   */
  at(abs: string, reals: Map<string, string>): string {
    if (this.home === null) return abs
    const cut = abs.lastIndexOf(path.sep)
    if (cut !== this.lastDir.length || !abs.startsWith(this.lastDir)) {
      this.lastDir = abs.slice(0, cut)
      this.lastAt = this.enter(reals.get(this.lastDir))
    }
    return this.lastAt === null ? abs : abs.slice(cut + 1)
  }

  /** Back to the working folder the process had (before any step that may wait, and at the end). */
  leave(): void {
    this.lastDir = ''
    this.lastAt = null
    if (this.inside === null) return
    this.inside = null
    try {
      process.chdir(this.home!)
    } catch {
      // Removed meanwhile by someone else: there is nothing to return to.
    }
  }

  private enter(real: string | undefined): string | null {
    if (real === undefined || hasRawBytes(real)) {
      this.leave()
      return null
    }
    if (real === this.inside) return real
    try {
      process.chdir(real)
      this.inside = real
      if (process.cwd() === real) return real
    } catch {
      // Gone or not a folder any more: its paths go the long way (and fail there as they should).
    }
    this.leave()
    return null
  }
}
