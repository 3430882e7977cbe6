// Folder listings remembered from one walk to the next. Why: listing every folder is about a fifth
// of a capture after a small turn (~1,000 folders, ~20 ms), and a folder's listing can only change
// when its ctime does: the kernel sets it whenever an entry is created, removed or renamed in the
// folder, and — unlike mtime — no program can set it back (tar, rsync -a and cp -p restore folder
// mtimes after filling them; that very utimes call moves ctime). A file edited in place changes
// its own times, never its folder's, and files are always lstat-ed, so their edits never depend on
// this memo. A listing is kept for the same folder (inode) with the same mtime and ctime.
//
// The racy case (git's "racy clean" problem): an entry added in the same timestamp tick as the
// listing leaves the folder's times as they were. So a listing is reused only if the folder's
// times are older than the walk that listed it by RACY_MARGIN_MS — more than the coarsest
// timestamp granularity in use (FAT: 2 s) and any coarse kernel clock — so any later change gets
// different times. A folder changed within the margin is simply listed again.

/**
 * A folder's listing as the walk uses it: names, whether the listing called each a folder, and each
 * one's key. Reusing the key strings themselves matters: they are already hashed, so looking them
 * up in the last record costs a fraction of building and hashing new ones.
 */
export interface Listing {
  names: string[]
  dirs: boolean[]
  keys: string[]
  /** Which entries the rules excluded, and which rules (ExcludeRules.signature()) said so. */
  excluded?: { rules: string; flags: Uint8Array }
}

/** What identifies a folder's state: fs.Stats has these. */
export interface FolderTimes {
  ino: number
  mtimeMs: number
  ctimeMs: number
}

interface Remembered extends FolderTimes {
  /** When the walk that listed it started (Date.now()). */
  listedAt: number
  /** The walk's own object (it adds what it learns, see Listing.excluded). */
  listing: Listing
}

export const RACY_MARGIN_MS = 3000

// Linux statfs magic numbers of file systems whose folder times may come from another machine
// (NFS, SMB/CIFS, FUSE mounts such as sshfs): there, folders are always listed.
const REMOTE_FS_TYPES = new Set([0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x65735546, 0x01021997])

/** Does a root on a file system of this statfs type get remembered listings? */
export function listingsTrustedOn(fsType: number | undefined, platform: string = process.platform): boolean {
  if (fsType === undefined) return platform !== 'linux'
  return platform !== 'linux' || !REMOTE_FS_TYPES.has(fsType)
}

/** May a listing taken at `listedAt`, of a folder then at `was`, stand for the folder now at `now`? */
export function listingStillValid(was: FolderTimes & { listedAt: number }, now: FolderTimes): boolean {
  if (was.ino !== now.ino || was.mtimeMs !== now.mtimeMs || was.ctimeMs !== now.ctimeMs) return false
  return Math.max(now.mtimeMs, now.ctimeMs) < was.listedAt - RACY_MARGIN_MS
}

export class ListingMemo {
  private last = new Map<string, Remembered>()
  private next: Map<string, Remembered> | null = null
  private walkStartedAt = 0
  /** Listings reused / taken by the current (or last) walk. */
  reused = 0
  listed = 0

  /** A walk starts: listings it keeps or takes replace the old ones when it ends. */
  begin(): void {
    this.next = new Map()
    this.walkStartedAt = Date.now()
    this.reused = 0
    this.listed = 0
  }

  /** The remembered listing of `dirKey`, if the folder (lstat-ed just now) cannot have changed. */
  get(dirKey: string, st: FolderTimes): Listing | null {
    const was = this.last.get(dirKey)
    if (!was || !listingStillValid(was, st)) return null
    this.next?.set(dirKey, was)
    this.reused++
    return was.listing
  }

  /** A fresh listing, taken after `st` was read. */
  put(dirKey: string, st: FolderTimes, listing: Listing): void {
    this.next?.set(dirKey, { listing, ino: st.ino, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, listedAt: this.walkStartedAt })
    this.listed++
  }

  /** The walk completed: folders it did not visit (gone, now excluded) are forgotten. */
  end(): void {
    if (this.next) this.last = this.next
    this.next = null
  }

  clear(): void {
    this.last = new Map()
    this.next = null
  }
}
