/**
 * What the engine asks of a change journal, and the bookkeeping both backends share (the parcel
 * watcher in watch.ts, the engine's own inotify worker in inotify-watch.ts): the paths with events
 * since the last take, and whether they can be trusted at all.
 */
import type fs from 'node:fs'

export interface ChangeWatcher {
  dirCreated: boolean
  baseline: boolean
  readonly healthy: boolean
  barrier(): Promise<boolean>
  /** Stop watching these folders (a restore is about to remove them); see restore-watch.ts. */
  unwatch?(dirs: string[]): Promise<boolean>
  take(): Set<string> | null
  /** The paths with events since the last take, left in place. */
  peek(): ReadonlySet<string>
  /** Stop trusting this journal for good (its check found a change it never reported). */
  giveUp(why: string): void
  readonly failure: string | null
  reset(): void
  resubscribe(): Promise<void>
  checkFolder(st: fs.Stats): void
  stop(): Promise<void>
}

/**
 * File systems whose every change, made on this machine, goes through this kernel's VFS and so
 * reaches inotify: ext2/3/4, xfs, btrfs, tmpfs, f2fs, zfs, bcachefs, and overlayfs (a container's
 * root: its lower layers are read-only image layers). Not listed, so walked in full: NFS, SMB/CIFS,
 * 9p, FUSE (sshfs, virtiofs, Docker Desktop's shares), whose files another machine or a host can
 * change without any event here.
 */
export const LOCAL_FS = new Map<number, string>([
  [0xef53, 'ext4'],
  [0x58465342, 'xfs'],
  [0x9123683e, 'btrfs'],
  [0x01021994, 'tmpfs'],
  [0xf2f52010, 'f2fs'],
  [0x2fc12fc1, 'zfs'],
  [0xca451a4e, 'bcachefs'],
  [0x794c7630, 'overlayfs'],
])

export const LOCAL_FS_TYPES = [...LOCAL_FS.keys()]

/** A folder born less than this before its subscription started may lack a watch (checkFolder). */
export const YOUNG_FOLDER_MS = 100

export abstract class JournalState {
  /**
   * A folder was created since the subscription. Measured: @parcel/watcher (inotify) can miss the
   * watch on folders created in quick succession (mkdir -p, unpacking) and then never reports
   * changes inside them. Such a watcher is re-subscribed before the next full scan (a fresh
   * subscription watches every folder that exists), and no baseline is trusted meanwhile.
   */
  dirCreated = false
  /** True once a full scan ran with this watcher active (the dirty set is relative to it). */
  baseline = false
  /** When the current subscription started (folders born after it may lack a watch). */
  subscribedAt = 0
  /** The devices of the folders the subscription watches: a folder on another one is a mount made since. */
  protected devices = new Set<number>()
  protected dirty = new Set<string>()
  protected broken = false
  /** Why the journal last failed (shown in warnings and tests), or null. */
  failure: string | null = null
  /** The root cannot be watched faithfully (a network mount inside it, the watch limit): never resubscribed. */
  gaveUp = false

  /** Take the paths with events since the last take (absolute). Null when not trustworthy. */
  take(): Set<string> | null {
    if (this.broken || !this.baseline) {
      this.dirty = new Set()
      return null
    }
    const d = this.dirty
    this.dirty = new Set()
    return d
  }

  /**
   * Called by the full walk for every folder: a folder born after the subscription started may
   * have no watch even when no create event was reported, so the baseline is not trusted. With
   * no birth time (some file systems), nothing can be proven and the watcher is never trusted.
   */
  checkFolder(st: fs.Stats): void {
    if (!(st.birthtimeMs > 0) || st.birthtimeMs >= this.subscribedAt - YOUNG_FOLDER_MS) this.dirCreated = true
    // A file system mounted inside the root since the subscription (a mount makes no event): walk
    // and subscribe afresh, which watches it if it is local and gives up if not.
    if (!this.devices.has(st.dev)) this.dirCreated = true
  }

  peek(): ReadonlySet<string> {
    return this.dirty
  }

  giveUp(why: string): void {
    this.gaveUp = true
    this.broken = true
    this.failure = why
  }

  /** Forget events (a full scan is about to record the truth). */
  reset(): void {
    this.dirty = new Set()
    this.dirCreated = false
  }
}
