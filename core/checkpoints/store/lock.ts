// One operation at a time inside the store's owning engine (owner.ts keeps other engines out): held
// by a restore from its conflict check to its last step, and by captures, so a new turn cannot
// start writing while files are being put back. The lock file says which operation runs, for
// anyone looking at the store; one left on disk is a crash's and is cleared at open.
import fs from 'node:fs'
import path from 'node:path'
import { CheckpointError } from '../types'
import { FILE_MODE, readJson } from './fsutil'
import { writeToStore } from './store-space'

export class StoreLock {
  private readonly file: string
  private heldBy: string | null = null
  private onDisk = false

  constructor(storeDir: string) {
    this.file = path.join(storeDir, 'lock')
  }

  get held(): string | null {
    return this.heldBy
  }

  /**
   * Take the lock or throw ELOCKED; `waitMs` retries for that long first. `announce: false` for a
   * hold of a moment (a plan's barrier with the change journal): no lock file is written for it.
   * Why: a file created in the store costs a free inode, which on a busy disk means a read of its
   * table, and nobody looking at the store could see a hold that short anyway.
   */
  async acquire(purpose: string, waitMs = 0, announce = true): Promise<void> {
    const deadline = Date.now() + waitMs
    for (;;) {
      if (this.heldBy === null && (!announce || this.tryCreate(purpose))) {
        this.heldBy = purpose
        this.onDisk = announce
        return
      }
      if (Date.now() >= deadline) {
        const owner = this.heldBy ?? this.ownerText()
        throw new CheckpointError('ELOCKED', `checkpoint store is busy (${owner}); try again when it finishes`)
      }
      await new Promise((r) => setTimeout(r, 25))
    }
  }

  private tryCreate(purpose: string): boolean {
    try {
      const fd = fs.openSync(this.file, 'wx', FILE_MODE)
      try {
        writeToStore(fd, JSON.stringify({ pid: process.pid, purpose, at: Date.now() }), this.file)
      } catch (err) {
        // A lock file that could not be filled (a full disk) is not held by anyone: left there, it
        // would refuse every later capture as "busy" until the app restarts.
        fs.closeSync(fd)
        fs.rmSync(this.file, { force: true })
        throw err
      }
      fs.closeSync(fd)
      return true
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      return false
    }
  }

  private ownerText(): string {
    const o = readJson<{ pid: number; purpose: string }>(this.file)
    return o ? `${o.purpose} in process ${o.pid}` : 'locked'
  }

  release(): void {
    if (this.heldBy === null) return
    this.heldBy = null
    if (this.onDisk) fs.rmSync(this.file, { force: true })
  }

  /** On open, by the store's owner (owner.ts): any operation lock on file is left from a crash. */
  clearStale(): void {
    fs.rmSync(this.file, { force: true })
  }
}
