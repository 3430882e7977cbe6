/**
 * The messages between the host and the checkpoint engine's worker thread, as zod schemas: every
 * message is parsed on the side that receives it (the same rule as shared/ipc-contract.ts). The
 * host calls a store's method by name with its arguments; the worker answers with the result or a
 * `CheckpointError` code, reports capture progress, and asks the host what only the host knows
 * (what a turn's tools wrote). Functions never cross: the restores kept for attempts travel with
 * every call, and tool use is a request the host answers.
 */
import { z } from 'zod'
import { CheckpointStatsSchema } from '../../shared/ipc-contract'

const id = z.number().int().nonnegative()
const text = z.string().max(100_000)
const TurnKey = z.object({ sessionID: text, messageID: text })
const TurnKeyInput = z.union([text, TurnKey])
const Choices = z.object({
  onConflict: z.enum(['restore-rest', 'cancel']).optional(),
  overwrite: z.array(text).optional(),
  keep: z.array(text).optional(),
})
const ForeignTurn = z.object({ turn: TurnKey, createdAt: z.number(), sealedAt: z.number().optional(), paths: z.array(text) })
const RootConfig = z.object({
  path: text,
  shared: z.boolean().optional(),
  excludes: z.array(text).optional(),
  gitignore: z.boolean().optional(),
  caseInsensitive: z.boolean().optional(),
})

/** What the worker needs to open a store (OpenOptions without its function). */
export const WireOpenOptions = z.object({
  storeDir: text,
  roots: z.array(RootConfig),
  maxFileBytes: z.number().positive().optional(),
  watch: z.union([z.boolean(), z.literal('auto')]).optional(),
  journalCheckEvery: z.number().int().positive().optional(),
  /** The user's folder where Retake instances register their stores (project-registry.ts). */
  projectRegistry: text.nullable().optional(),
  /** Whether clean-ups keep the restores the host pins (sent with every call). */
  pinned: z.boolean(),
})
export type WireOpenOptions = z.infer<typeof WireOpenOptions>

/**
 * A long list of records (a plan's actions, an install's thousands of paths) checked field by
 * field in a plain loop: a zod object per entry held the host's event loop (figures: docs).
 */
function records(fields: Record<string, 'string' | 'number' | 'boolean'>) {
  const names = Object.entries(fields)
  return z.custom<Record<string, unknown>[]>(
    (v) => Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null && names.every(([k, t]) => typeof (x as Record<string, unknown>)[k] === t)),
    { message: `expected a list of records with ${names.map(([k, t]) => `${k}: ${t}`).join(', ')}` },
  )
}

/** A plan sent back for apply: its id only (the engine acts on its own copy, found by planId). */
const PlanRef = z.object({ planId: text })
const Plan = z.looseObject({ planId: text, turns: z.array(TurnKey), actions: records({ id: 'string', root: 'string', path: 'string', kind: 'string' }), warnings: z.array(text) })
const ApplyResult = z.looseObject({
  restoreId: text.nullable(),
  status: z.enum(['done', 'partial', 'cancelled', 'noop']),
  applied: records({ path: 'string', root: 'string' }),
  skipped: records({ path: 'string', root: 'string', reason: 'string' }),
  failed: records({ path: 'string', root: 'string', error: 'string' }),
  turnsMarkedRestored: z.boolean(),
  warnings: z.array(text),
})
const CaptureResult = z.looseObject({ turnKey: TurnKey, snapshotId: text, created: z.boolean(), mode: z.enum(['full', 'watched', 'kept']), warnings: z.array(text) })
const TurnInfo = z.object({ turnKey: TurnKey, status: z.enum(['open', 'sealed', 'restored']), createdAt: z.number(), sealedAt: z.number().optional(), restoredBy: text.optional() })
const ChangeItems = records({ root: 'string', path: 'string', change: 'string', binary: 'boolean', added: 'number', removed: 'number' })
const Swept = z.object({ blobsSwept: z.number(), bytesFreed: z.number() })
const CaptureArgs = z.tuple([TurnKeyInput, z.object({ waitMs: z.number().nonnegative().optional(), progress: z.boolean() })])

/** Per method: the arguments the worker accepts and the result the host accepts. */
export const METHODS = {
  open: {
    args: z.tuple([WireOpenOptions]),
    result: z.object({ recovered: z.array(text), recoveredRestores: z.array(z.looseObject({ restoreId: text })), warnings: z.array(text) }),
  },
  capture: { args: CaptureArgs, result: CaptureResult },
  seal: { args: CaptureArgs, result: CaptureResult },
  plan: {
    args: z.tuple([
      z.union([z.object({ turnKey: TurnKeyInput }), z.object({ backTo: TurnKeyInput })]),
      z.object({ toolUse: z.boolean(), foreign: z.array(ForeignTurn).optional() }),
    ]),
    result: Plan,
  },
  apply: { args: z.tuple([PlanRef, Choices.optional()]), result: ApplyResult },
  undo: { args: z.tuple([text, Choices.optional()]), result: ApplyResult },
  planUndo: { args: z.tuple([text]), result: Plan },
  listTurns: { args: z.tuple([text.optional()]), result: z.array(TurnInfo) },
  changes: { args: z.tuple([TurnKeyInput]), result: ChangeItems },
  restoreChanges: { args: z.tuple([text]), result: ChangeItems },
  exportTurnFiles: { args: z.tuple([TurnKeyInput, text, text]), result: z.object({ written: z.number(), skipped: z.array(z.object({ path: text, reason: text })) }) },
  forkSession: { args: z.tuple([text, text, text.optional(), z.record(text, text).optional()]), result: z.number() },
  bringBackAttemptTurn: { args: z.tuple([TurnKeyInput, text]), result: z.boolean() },
  deleteSession: { args: z.tuple([text]), result: z.undefined() },
  retention: {
    args: z.tuple([z.object({ maxAgeMs: z.number().optional(), maxCountPerSession: z.number().optional(), maxCount: z.number().optional(), maxBytes: z.number().optional() })]),
    result: Swept.extend({ turnsDropped: z.number() }),
  },
  sweep: { args: z.tuple([]), result: Swept },
  stats: { args: z.tuple([]), result: CheckpointStatsSchema },
  verify: { args: z.tuple([z.object({ repair: z.boolean().optional() }).optional()]), result: z.looseObject({ ok: z.boolean(), warnings: z.array(text) }) },
  lastRestore: { args: z.tuple([text]), result: z.object({ restoreId: text, turn: TurnKey, createdAt: z.number(), rolledBack: z.boolean() }).nullable() },
  close: { args: z.tuple([]), result: z.undefined() },
  /** Test seam (store-space.ts), for the engine as a whole: the disk takes only this many more bytes (null: no limit). */
  limitSpace: { args: z.tuple([z.number().int().nonnegative().nullable()]), result: z.undefined() },
} as const
export type MethodName = keyof typeof METHODS
export type MethodArgs<M extends MethodName> = z.infer<(typeof METHODS)[M]['args']>
const methodNames = Object.keys(METHODS) as [MethodName, ...MethodName[]]

const ProgressEvent = z.object({ phase: z.enum(['scan', 'hash']), filesDone: z.number(), filesTotal: z.number(), bytesDone: z.number(), bytesTotal: z.number() })
/** Tool use of one turn as it crosses: the set of paths as a list. */
export const WireToolUse = z.object({ turn: TurnKey, paths: z.array(text), opaque: z.boolean() })
export type WireToolUse = z.infer<typeof WireToolUse>

/** Host → worker. */
export const ToWorker = z.union([
  /** `pinned`: the restores clean-ups keep, as the host knows them at this call. */
  z.object({ type: z.literal('call'), id, store: text, method: z.enum(methodNames), args: z.unknown(), pinned: z.array(text) }),
  z.object({ type: z.literal('answer'), id, ok: z.literal(true), uses: z.array(WireToolUse) }),
  z.object({ type: z.literal('answer'), id, ok: z.literal(false), message: text }),
])
export type ToWorker = z.infer<typeof ToWorker>

/** An error as it crosses: `code` is the CheckpointError code, or the system error's (ENOSPC…). */
export const WireError = z.object({ name: text, message: text, code: text.optional() })
export type WireError = z.infer<typeof WireError>

/** Worker → host. */
export const FromWorker = z.union([
  z.object({ type: z.literal('result'), id, ok: z.literal(true), value: z.unknown() }),
  z.object({ type: z.literal('result'), id, ok: z.literal(false), error: WireError }),
  z.object({ type: z.literal('progress'), id, event: ProgressEvent }),
  /** What the named turns' tools wrote, for the plan of call `call`. */
  z.object({ type: z.literal('request'), id, call: id, turns: z.array(TurnKey) }),
])
export type FromWorker = z.infer<typeof FromWorker>
