// Public types of the checkpoint engine. Everything the app (main process or browser-mode host)
// sees is declared here, the calls of the store it opens in checkpoint-store.ts; docs/checkpoints.md
// explains them.

/** A turn is keyed by the opencode session and the user message that started it. */
export interface TurnKey {
  sessionID: string
  messageID: string
}
/** Either the object form or the string form `ses_x/msg_y`. */
export type TurnKeyInput = TurnKey | string

export interface RootConfig {
  /** Absolute folder path: the project folder or an extra volume. */
  path: string
  /** Shared folders are never scanned, never rolled back (they belong to every session). */
  shared?: boolean
  /** Extra exclude patterns, gitignore syntax, relative to this root. */
  excludes?: string[]
  /** Read .gitignore files under this root (default true). */
  gitignore?: boolean
  /** Compare paths case-insensitively (default: true on darwin and win32). */
  caseInsensitive?: boolean
}

/**
 * How many of the `bytes` of one write into the store's own files (`file`: a temp name for atomic
 * writes) the disk still takes (store-space.ts); fewer than `bytes`: ENOSPC after those.
 */
export type SpaceGate = (w: { file: string; bytes: number }) => number

export interface OpenOptions {
  /** Where the store lives (the app's data dir); created 0700. */
  storeDir: string
  /**
   * How many bytes of each store write the disk takes (store-space.ts): for tests that fill the
   * disk at a chosen point without root or a tiny file system. Absent: the disk's own answer.
   */
  spaceGate?: SpaceGate
  roots: RootConfig[]
  /** Files larger than this are recorded as "not checkpointed" (default 512 MiB). */
  maxFileBytes?: number
  /**
   * The change journal: a capture after a small change re-reads only the paths an OS file watcher
   * reported instead of walking every folder. Default 'auto': on for roots on a local Linux file
   * system (ext4, xfs, btrfs, tmpfs, …), off elsewhere; `true` also turns on @parcel/watcher on
   * other systems; `false`: full walks only. Whenever the journal is in doubt the capture walks in
   * full (see watch.ts, docs/checkpoints.md "Change journal").
   */
  watch?: boolean | 'auto'
  /**
   * Every this many captures answered by the change journal, one walks in full anyway and checks
   * that the journal reported every change it finds; one it missed turns the journal off for that
   * root (default 25; see journal-check.ts).
   */
  journalCheckEvery?: number
  /**
   * Restores the app still needs whatever happens to their turns: an attempt's files are the
   * before-image of the restore that replaced it (docs/attempts.md). Clean-ups never drop them.
   */
  pinnedRestores?: () => Iterable<string>
  /**
   * A folder every Retake instance of the user shares (`projectRegistryDir()`): the store registers
   * its folders there, and its plans weigh the turns of other stores on the same folders (another
   * instance with another data dir) as uncertain, never as this turn's (project-registry.ts).
   */
  projectRegistry?: string | null
}

/** One recorded path. `type` x = over the size cap: known to exist, content not kept. */
export type EntryType = 'file' | 'dir' | 'symlink' | 'oversize'
export interface Entry {
  type: EntryType
  /** Permission bits (mode & 0o7777). */
  mode: number
  size: number
  mtimeMs: number
  ino: number
  /** SHA-256 of the content (files) or of the link text (symlinks). */
  hash?: string
  /** Link text for symlinks. */
  link?: string
  /**
   * Files: the ctime of the stat the hash was read under, kept only when it was not racy (see
   * stat-proof.ts). While a file still shows it (and the other fields), its content is proven.
   */
  ctimeMs?: number
  /**
   * Files and folders: extended attributes, sorted by name, values base64 (xattrs.ts); absent when
   * there are none (and in snapshots written before they were recorded); `'unread'` when over the
   * cap or unreadable (a restore then leaves the path's attributes as they are).
   */
  xattrs?: Xattrs
}
/** `[name, base64 value]` pairs sorted by name, or `'unread'`. */
export type Xattrs = [string, string][] | 'unread'

export interface ProgressEvent {
  phase: 'scan' | 'hash'
  filesDone: number
  filesTotal: number
  bytesDone: number
  bytesTotal: number
}
export interface CaptureOptions {
  onProgress?: (p: ProgressEvent) => void
  /** Test hook: called after each read of a file's content, before its stat is compared with the one the read began from (torn-read tests write to the file here). */
  afterRead?: (abs: string) => void
}
/** What a capture read, and what it could not keep. */
export interface ScanStats {
  filesScanned: number
  filesHashed: number
  bytesHashed: number
  /** Root-relative keys recorded without content (over the size cap, unreadable, written throughout). */
  notCheckpointed: string[]
  warnings: string[]
}
export interface CaptureResult extends ScanStats {
  turnKey: TurnKey
  snapshotId: string
  /** False when the turn already had its pre-image (resume after a pause keeps the first). */
  created: boolean
  /** 'full': the whole tree was walked; 'watched': only paths with watcher events; 'kept': resume, nothing read. */
  mode: 'full' | 'watched' | 'kept'
}

export type TurnStatus = 'open' | 'sealed' | 'restored'
export interface TurnInfo {
  turnKey: TurnKey
  status: TurnStatus
  createdAt: number
  sealedAt?: number
  restoredBy?: string
}

export type PlanTarget = { turnKey: TurnKeyInput } | { backTo: TurnKeyInput }
export type ActionKind = 'restore' | 'delete' | 'recreate' | 'nothing' | 'conflict' | 'not-checkpointed' | 'not-this-turn'

export interface PlanAction {
  /** Stable id of the action inside its plan; choices refer to it. */
  id: string
  root: string
  /** Root-relative, '/'-separated, NFC. */
  path: string
  kind: ActionKind
  /** State the restore puts back (undefined = absent). */
  target?: Entry
  /** State the engine expects to find (the turn's after-state; undefined = absent). */
  expected?: Entry
  /** State found on disk when the plan was made (undefined = absent). */
  actual?: Entry
  /** For conflicts: why, in words a user understands. */
  reason?: string
  expectedHash?: string | null
  actualHash?: string | null
  /** Unified diff current → target for text files. */
  diff?: string
  binary?: boolean
}

export interface Plan {
  planId: string
  target: { kind: 'turn' | 'backTo' | 'undo'; turnKey?: TurnKey; restoreId?: string }
  /** The turns this restore marks restored when it succeeds. */
  turns: TurnKey[]
  actions: PlanAction[]
  warnings: string[]
  /** Offered when an older turn's files were changed by a newer one. */
  suggestion?: { backTo: TurnKey }
  createdAt: number
}

/** Per-conflict choice; `cancel` aborts the whole restore. */
export interface ApplyChoices {
  /** What to do with conflicts: skip them and restore the rest (default), or cancel. */
  onConflict?: 'restore-rest' | 'cancel'
  /** Conflicting action ids the user chose to overwrite anyway. */
  overwrite?: string[]
  /** Action ids the user chose to leave as they are (any file of the plan, not only conflicts). */
  keep?: string[]
}

export interface ApplyResult {
  restoreId: string | null
  status: 'done' | 'partial' | 'cancelled' | 'noop'
  applied: { path: string; root: string; kind: ActionKind }[]
  skipped: { path: string; root: string; reason: string }[]
  failed: { path: string; root: string; error: string }[]
  /** True only when every action succeeded; only then the turns are marked restored. */
  turnsMarkedRestored: boolean
  warnings: string[]
}

export interface ChangeItem {
  root: string
  path: string
  change: 'added' | 'modified' | 'deleted' | 'mode' | 'type' | 'not-checkpointed'
  binary: boolean
  added: number
  removed: number
  /** Unified diff before → after for text files (absent for binary or oversized content). */
  diff?: string
}

export interface RetentionPolicy {
  maxAgeMs?: number
  /** Max turns kept per session (oldest first dropped). */
  maxCountPerSession?: number
  /** Max turns in total. */
  maxCount?: number
  /** Max bytes of blobs in total (oldest turns dropped until under). */
  maxBytes?: number
}

export interface StoreStats {
  turns: number
  sessions: number
  snapshots: number
  blobs: number
  blobBytes: number
  storeBytes: number
  /** Restores kept for attempts (OpenOptions.pinnedRestores) that this store holds. */
  attemptRestores: number
}

/** A blob the checkpoints need that is missing or does not hash to its name, with a path that uses it. */
export interface BlobProblem {
  hash: string
  root: string
  path: string
}

/** What `verify` found (and, with repair, did). */
export interface VerifyReport {
  ok: boolean
  blobsChecked: number
  missing: BlobProblem[]
  damaged: BlobProblem[]
  /** Turns whose checkpoint (before or after) is gone from the store: they cannot be restored. */
  brokenTurns: string[]
  /** Blobs no checkpoint refers to: safe to drop. */
  unreachableBlobs: number
  unreachableBytes: number
  /** Records that could not be read when the store was opened (ignored, never acted on). */
  warnings: string[]
  repaired: { blobsSwept: number; bytesFreed: number; damagedMovedAside: number } | null
}

/** What one turn's tools wrote (attribution.ts decides with it). */
export interface TurnToolUse {
  /** Absolute paths the turn's file tools wrote, created, deleted or moved. */
  paths: ReadonlySet<string>
  /** A tool ran that can change any file (bash, a sub-agent, an unknown tool). */
  opaque: boolean
}

/** Tool use per turn, as far as the host could learn it. */
export type ToolUseLookup = (turn: TurnKey) => TurnToolUse | undefined

/** A turn of another project's store whose folders overlap this store's (a shared extra folder). */
export interface ForeignTurn {
  turn: TurnKey
  createdAt: number
  /** Unset while it runs. */
  sealedAt?: number
  /** The real paths this store and the other both checkpoint (the deeper of two nested roots). */
  paths: string[]
}

export class CheckpointError extends Error {
  constructor(
    readonly code: 'ELOCKED' | 'EUNKNOWN_TURN' | 'EBAD_KEY' | 'EBAD_PATH' | 'ECLOSED' | 'EFORMAT' | 'EOWNED' | 'ENOSPC',
    message: string,
  ) {
    super(message)
    this.name = 'CheckpointError'
  }
}
