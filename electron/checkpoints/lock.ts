// One writer per workspace store: a lock file created with O_EXCL holding the owner's pid. It is
// held by a restore from its conflict check to its last step, and by captures, so a new turn
// cannot start writing while files are being put back. A lock left by a dead process is stale.
import fs from 'node:fs'
import path from 'node:path'
import { CheckpointError } from './types'
import { FILE_MODE } from './fsutil'

export class StoreLock {
  private readonly file: string
  private heldBy: string | null = null

  constructor(storeDir: string) {
    this.file = path.join(storeDir, 'lock')
  }

  get held(): string | null {
    return this.heldBy
  }

  /** Take the lock or throw ELOCKED; `waitMs` retries for that long first. */
  async acquire(purpose: string, waitMs = 0): Promise<void> {
    const deadline = Date.now() + waitMs
    for (;;) {
      if (this.heldBy === null && this.tryCreate(purpose)) {
        this.heldBy = purpose
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
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, purpose, at: Date.now() }))
      fs.closeSync(fd)
      return true
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
    // Stale lock: its owner died (a crash mid-restore is completed on the next open).
    const owner = this.readOwner()
    if (owner && owner.pid !== process.pid && !alive(owner.pid)) {
      fs.rmSync(this.file, { force: true })
      return this.tryCreate(purpose)
    }
    return false
  }

  private readOwner(): { pid: number; purpose: string } | null {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as { pid: number; purpose: string }
    } catch {
      return null
    }
  }

  private ownerText(): string {
    const o = this.readOwner()
    return o ? `${o.purpose} in process ${o.pid}` : 'locked'
  }

  release(): void {
    if (this.heldBy === null) return
    this.heldBy = null
    fs.rmSync(this.file, { force: true })
  }

  /** On open: a lock file of a dead process is left from a crash. */
  clearStale(): void {
    const o = this.readOwner()
    if (o && o.pid !== process.pid && !alive(o.pid)) fs.rmSync(this.file, { force: true })
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
