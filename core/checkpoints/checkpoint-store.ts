// The store the host opens (index.ts openCheckpointStore): every call it offers. The values those
// calls take and return are in types.ts; docs/checkpoints.md "API" explains each call.
import type {
  ApplyChoices,
  ApplyResult,
  CaptureOptions,
  CaptureResult,
  ChangeItem,
  ForeignTurn,
  Plan,
  PlanTarget,
  RetentionPolicy,
  StoreStats,
  ToolUseLookup,
  TurnInfo,
  TurnKey,
  TurnKeyInput,
  VerifyReport,
} from './types'

export interface CheckpointStore {
  capture(turnKey: TurnKeyInput, opts?: CaptureOptions): Promise<CaptureResult>
  seal(turnKey: TurnKeyInput, opts?: CaptureOptions): Promise<CaptureResult>
  /**
   * `toolUse`: what the given turns' tools wrote (see attribution.ts); without it every change in a
   * turn's window is the turn's. `foreign`: other projects' turns on folders this store shares.
   */
  plan(target: PlanTarget, opts?: { toolUse?: (turns: TurnKey[]) => Promise<ToolUseLookup>; foreign?: ForeignTurn[] }): Promise<Plan>
  apply(plan: Plan, choices?: ApplyChoices): Promise<ApplyResult>
  undo(restoreId: string, choices?: ApplyChoices): Promise<ApplyResult>
  planUndo(restoreId: string): Promise<Plan>
  listTurns(sessionID?: string): TurnInfo[]
  changes(turnKey: TurnKeyInput): Promise<ChangeItem[]>
  /** `ids`: the fork's message id of each original one (the copies are recorded under them). */
  forkSession(fromSessionID: string, toSessionID: string, upToMessageID?: string, ids?: Record<string, string>): Promise<number>
  deleteSession(sessionID: string): Promise<void>
  retention(policy: RetentionPolicy): Promise<{ turnsDropped: number; blobsSwept: number; bytesFreed: number }>
  sweep(): Promise<{ blobsSwept: number; bytesFreed: number }>
  stats(): Promise<StoreStats>
  /** The session's latest restore that can be undone (top of its undo chain), across restarts. */
  lastRestore(sessionID: string): { restoreId: string; turn: TurnKey; createdAt: number; rolledBack: boolean } | null
  /** Check every checkpoint's content (fsck); `repair` drops only what is provably unreachable. */
  verify(opts?: { repair?: boolean }): Promise<VerifyReport>
  /** Recovery messages from the last open (interrupted restores completed). */
  readonly recovered: string[]
  close(): Promise<void>
}
