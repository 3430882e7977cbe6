/**
 * What the engine asks of a change journal (watch.ts): the paths with events since the last take,
 * and whether they can be trusted at all. Plus the facts about file systems and mounts it judges by.
 */
import fs from 'node:fs'
import { fsTypeOf } from './stat-proof'

export interface ChangeWatcher {
  dirCreated: boolean
  baseline: boolean
  readonly healthy: boolean
  /**
   * Files with more than one name (keys), as the last captures found them: a write through a name
   * outside the watched folders (a hard link from a package store, a backup) reaches no watch, so
   * every watched capture looks at these (an lstat each, which sees the shared inode's ctime move).
   */
  linked: Set<string>
  /**
   * Every event of a change made before this time (ms) has been delivered: the last barrier seen
   * was made then (or the subscription started). A path created since may have left no event yet.
   */
  readonly deliveredBefore: number
  barrier(): Promise<boolean>
  take(): Set<string> | null
  /** The paths with events since the last take, left in place. */
  peek(): ReadonlySet<string>
  /** Paths the next capture must look at although no event may come for them (see watch.ts recheck). */
  recheck(absPaths: Iterable<string>): void
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

export type WatchOption = boolean | 'auto'

/** Whether a root gets a change journal, and why (pure: unit-tested). */
export function journalDecision(option: WatchOption, platform: string, fsType: number | null): { on: boolean; why: string } {
  if (option === false) return { on: false, why: 'off (watch: false)' }
  if (option === true) return { on: true, why: 'on (watch: true)' }
  if (platform !== 'linux') return { on: false, why: `off: ${platform} has no default journal (watch: true turns it on)` }
  const name = fsType === null ? null : LOCAL_FS.get(fsType)
  if (!name) return { on: false, why: `off: the folder is not on a local file system (type 0x${(fsType ?? 0).toString(16)}), full walks` }
  return { on: true, why: `on: ${name}` }
}

/**
 * The kernel keeps at most max_queued_events (16,384) inotify events and drops the rest with one
 * IN_Q_OVERFLOW, which parcel discards without a word. Parcel merges a path's events into one, and
 * a written file costs the kernel at least two (create, modify), so this many delivered events in
 * two intervals between barriers means the queue may have overflowed: the journal is not trusted.
 */
export function overflowBound(): number {
  let queue = 16384
  try {
    queue = Number(fs.readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8')) || queue
  } catch {
    /* not Linux: the same bound, as a size past which a walk costs no more than the events */
  }
  return Math.floor(queue / 4)
}

/** A folder born less than this before its subscription started may lack a watch (checkFolder). */
export const YOUNG_FOLDER_MS = 100

/**
 * The mounts at or below a folder, from this process's mount table (one small read), compared
 * between subscription and capture: a mount makes no event. Mounts elsewhere (a container
 * starting) do not count.
 */
export function mountsUnder(realRoot: string, table = readMountTable()): string {
  return mountLines(realRoot, table)
    .map((m) => m.line)
    .join('\n')
}

/** The mount points at or below a folder (field 5 of each mountinfo line, unescaped). */
export function mountPointsUnder(realRoot: string, table = readMountTable()): string[] {
  return mountLines(realRoot, table).map((m) => m.point)
}

/**
 * The devices a subscription to a folder covers (its own and those of the mounts below it) and the
 * mount table below it, taken at the subscription; or why the folder can never be watched: a mount
 * below it of a file system whose changes may not reach this kernel (NFS, FUSE).
 */
export function watchedDevices(realRoot: string): { devices: Set<number>; mounts: string } | string {
  const devices = new Set([fs.statSync(realRoot).dev])
  const mounts = mountsUnder(realRoot)
  for (const point of mountPointsUnder(realRoot)) {
    if (point === realRoot) continue
    const type = fsTypeOf(point)
    if (type === undefined || !LOCAL_FS.has(type)) return `${point} is on a file system whose changes may not reach a watcher`
    try {
      devices.add(fs.statSync(point).dev)
    } catch {
      /* hidden by a later mount: its own device is recorded below it */
    }
  }
  return { devices, mounts }
}

function mountLines(realRoot: string, table: string): { line: string; point: string }[] {
  // Space, tab, newline and backslash in a mount point are written as octal escapes.
  const unescape = (p: string) => p.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)))
  const below = realRoot.endsWith('/') ? realRoot : realRoot + '/'
  const out: { line: string; point: string }[] = []
  for (const line of table.split('\n')) {
    const field = line.split(' ')[4]
    if (field === undefined) continue
    const point = unescape(field)
    if (point === realRoot || point.startsWith(below)) out.push({ line, point })
  }
  return out
}

function readMountTable(): string {
  try {
    return fs.readFileSync('/proc/self/mountinfo', 'utf8')
  } catch {
    return '' // not Linux: no mount table to compare, nothing to judge by
  }
}
