// Retake's checkpoint engine: local, per-turn checkpoints of the project folder and extra volumes,
// so that retaking a turn also rolls back what it did on disk. Plain Node (no Electron import);
// docs/checkpoints.md describes the API, the on-disk format and the guarantees.
//
//   const store = await openCheckpointStore({ storeDir, roots: [{ path: project }] })
//   await store.capture('ses_1/msg_1')   // before the turn
//   await store.seal('ses_1/msg_1')      // after it
//   const plan = await store.plan({ turnKey: 'ses_1/msg_1' })
//   const res = await store.apply(plan, { onConflict: 'restore-rest' })
//   await store.undo(res.restoreId!)
import { bringBackAttemptTurn } from './plan/attempt-turns'
import { exportTurnFiles } from './restore/export'
import type { RootCoverage, TurnRecord } from './store/records'
import { Engine } from './capture/engine'
import { parseTurnKey } from './store/paths'
import { Records } from './store/records'
import { noStats } from './capture/scanner'
import { applyPlan, journalForPlan, makePlan, planTurns, makeUndoPlan } from './restore/restore'
import { recover } from './restore/restore-run'
import type { ApplyHooks, RecoveredRestore } from './restore/restore-run'
import { applyRetention, deleteSession, forkSession, pinnedHeld, pinRestores, sealCopies, sealedAsOriginal, sweep } from './store/retention'
import { restoreChanges, turnChanges } from './plan/changes'
import { verifyStore } from './store/verify'
import { lastRestoreOf } from './plan/turn-status'
import { isOutOfSpace, outOfSpaceError } from './store/store-space'
import { CheckpointError } from './types'
import type { ApplyChoices, CaptureOptions, CaptureResult, OpenOptions, TurnInfo, TurnKeyInput } from './types'
import type { CheckpointStore } from './checkpoint-store'

export * from './types'
export type { CheckpointStore } from './checkpoint-store'
export type { ApplyHooks, RecoveredRestore } from './restore/restore-run'
// The few helpers the host uses beside the store (the rest of this folder is the engine's own).
export { parseTurnKey, assertParentInside } from './store/paths'
export { isOutOfSpace, outOfSpaceError } from './store/store-space'
export { writeAtomicSync } from './store/fsutil'
export { releaseOwnerLeftHere } from './store/owner'
export { trimPlans } from './plan/plan-budget'
export { projectRegistryDir } from './store/project-registry'
// The messages between the host and the engine's thread (worker.ts runs the engine there).
export { FromWorker, METHODS, ToWorker, WireOpenOptions } from './worker-contract'
export type { MethodArgs, MethodName, WireError } from './worker-contract'

export interface CaptureCallOptions extends CaptureOptions {
  /** Wait this long for a running restore to finish instead of failing with ELOCKED. */
  waitMs?: number
}

export interface InternalStore extends CheckpointStore {
  /** Damaged or unknown records ignored while opening (never acted on). */
  readonly warnings: string[]
  /** The restores completed at open (`recovered`), with what each left as it was or failed on. */
  readonly recoveredRestores: RecoveredRestore[]
  capture(turnKey: TurnKeyInput, opts?: CaptureCallOptions): Promise<CaptureResult>
  seal(turnKey: TurnKeyInput, opts?: CaptureCallOptions): Promise<CaptureResult>
  apply(plan: import('./types').Plan, choices?: ApplyChoices, hooks?: ApplyHooks): Promise<import('./types').ApplyResult>
  /** What undoing the restore would change (changes.ts). */
  restoreChanges(restoreId: string): Promise<import('./types').ChangeItem[]>
  /** Writes the project's files as a turn left them into another folder (export.ts). */
  exportTurnFiles(turnKey: TurnKeyInput, rootAbs: string, target: string): import('./restore/export').ExportResult
  /** See attempt-turns.ts. */
  bringBackAttemptTurn(turnKey: TurnKeyInput, restoreId: string): Promise<boolean>
}

/**
 * Open (or create) a store. Interrupted restores found in the journal are completed before the
 * promise resolves; their messages are in `store.recovered`.
 */
export async function openCheckpointStore(opts: OpenOptions): Promise<InternalStore> {
  const e = new Engine(opts)
  if (opts.pinnedRestores) pinRestores(e, opts.pinnedRestores)
  let recovered: string[]
  const recoveredRestores: RecoveredRestore[] = []
  try {
    recovered = await recover(e, recoveredRestores)
    if (opts.watch !== false) await e.startWatchers(opts.watch ?? 'auto')
  } catch (err) {
    await e.close()
    throw err
  }

  const capture = async (input: TurnKeyInput, o: CaptureCallOptions = {}, sealing = false): Promise<CaptureResult> => {
    e.assertOpen()
    const key = parseTurnKey(input)
    const id = Records.key(key)
    const explain = (err: unknown) => (isOutOfSpace(err) ? outOfSpaceError(e.storeDir, err) : err)
    await e.lock.acquire(sealing ? 'seal' : 'capture', o.waitMs ?? 0).catch((err) => Promise.reject(explain(err)))
    const mark = e.mark()
    try {
      const existing = e.records.turns.get(id)
      if (sealing && !existing) throw new CheckpointError('EUNKNOWN_TURN', `seal without capture for ${id}`)
      if (sealing && existing!.status === 'restored') throw new CheckpointError('EUNKNOWN_TURN', `${id} was restored; capture it again to retake it`)
      if (!sealing && existing && existing.status !== 'restored') {
        // Resume of the same turn (permission pause, sub-agent, reconnect): the first pre-image
        // stays; the turn is open again until its next seal.
        if (existing.status === 'sealed') e.records.saveTurn({ ...existing, status: 'open' })
        return { turnKey: key, snapshotId: existing.pre, created: false, mode: 'kept', ...noStats() }
      }
      // A fork's copy of a turn that was running ends with the original (retention.ts).
      if (sealing && sealedAsOriginal(e, existing!)) {
        return { turnKey: key, snapshotId: e.records.turns.get(id)!.post ?? existing!.pre, created: false, mode: 'kept', ...noStats() }
      }
      const out = await e.captureAll(o)
      if (sealing) {
        const sealed: TurnRecord = { ...existing!, post: out.snapshotId, status: 'sealed', sealedAt: Date.now() }
        e.records.saveTurn(sealed)
        out.warnings.push(...sealCopies(e, sealed, existing))
      } else {
        // New turn, or a retake of a restored turn under the same message id: a fresh pre-image.
        // The replaced record is the previous attempt's turn: kept, so that attempt can come back.
        if (existing) e.records.archiveTurn(existing)
        const now = Date.now()
        e.records.saveTurn({
          format: 'retake-checkpoint-turn',
          version: 1,
          ...key,
          seq: e.records.nextSeq(),
          pre: out.snapshotId,
          post: null,
          status: 'open',
          createdAt: now,
          coverage: coverageNow(e),
        })
      }
      return { turnKey: key, created: !sealing, ...out }
    } catch (err) {
      e.rollback(mark)
      throw explain(err)
    } finally {
      e.lock.release()
    }
  }

  const store: InternalStore = {
    recovered,
    recoveredRestores,
    warnings: e.warnings,
    capture: (k, o) => capture(k, o, false),
    seal: (k, o) => capture(k, o, true),
    plan: async (target, opts) => {
      // Attribution asks the host what the turns' tools wrote; the engine says which turns matter.
      const turns = opts?.toolUse ? [...planTurns(e, target), ...(opts.foreign ?? []).map((f) => f.turn)] : []
      const tools = turns.length > 0 ? await opts!.toolUse!(turns) : undefined
      return makePlan(e, target, { tools, foreign: opts?.foreign }, await journalForPlan(e))
    },
    apply: (plan, choices, hooks) => applyPlan(e, plan, choices, hooks),
    planUndo: async (restoreId) => makeUndoPlan(e, restoreId),
    undo: async (restoreId, choices) => applyPlan(e, makeUndoPlan(e, restoreId), choices),
    listTurns: (sessionID) => {
      const ts = sessionID ? e.records.sessionTurns(sessionID) : e.records.allTurns()
      return ts.map((t): TurnInfo => ({
        turnKey: { sessionID: t.sessionID, messageID: t.messageID },
        status: t.status,
        createdAt: t.createdAt,
        sealedAt: t.sealedAt,
        restoredBy: t.restoredBy,
      }))
    },
    changes: (k) => turnChanges(e, k),
    restoreChanges: (restoreId) => restoreChanges(e, restoreId),
    exportTurnFiles: (k, rootAbs, target) => exportTurnFiles(e, parseTurnKey(k), rootAbs, target),
    forkSession: (from, to, upTo, ids) => forkSession(e, from, to, upTo, ids),
    bringBackAttemptTurn: (k, restoreId) => bringBackAttemptTurn(e, parseTurnKey(k), restoreId),
    deleteSession: async (s) => {
      await deleteSession(e, s)
    },
    retention: (p) => applyRetention(e, p),
    sweep: () => sweep(e),
    stats: async () => {
      const blobs = e.blobs.list()
      let blobBytes = 0
      for (const n of blobs.values()) blobBytes += n
      const turns = e.records.allTurns()
      return {
        turns: turns.length,
        sessions: new Set(turns.map((t) => t.sessionID)).size,
        snapshots: e.snaps.ids().length,
        blobs: blobs.size,
        blobBytes,
        storeBytes: e.storeBytes(),
        attemptRestores: pinnedHeld(e),
      }
    },
    verify: (o) => verifyStore(e, o?.repair === true),
    lastRestore: (sessionID) => lastRestoreOf(e, sessionID),
    close: () => e.close(),
  }
  return store
}

/** The rules each walked root was captured under (stored with the turn; see coverage.ts). */
function coverageNow(e: Engine): Record<string, RootCoverage> {
  const out: Record<string, RootCoverage> = {}
  for (const r of e.roots) if (!r.shared) out[r.id] = { excludes: [...(r.config.excludes ?? [])], gitignore: r.config.gitignore !== false }
  return out
}
