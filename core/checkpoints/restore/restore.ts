// plan / apply / undo. apply holds the store lock from its re-check of every path to its last step;
// it captures the paths it will touch first (so the restore can be undone), writes the journal
// intent, performs the steps, captures again, records the restore and only then marks the turns
// restored (the "conversation rollback" is committed last). Steps, commit and crash recovery:
// restore-run.ts.
import crypto from 'node:crypto'
import type { Engine } from '../capture/engine'
import { Journal, journalFile } from '../store/journal'
import type { Intent, Step } from '../store/journal'
import { classify, emptyPlan, PlanContext } from '../plan/planner'
import { turnCandidates, undoCandidates } from '../plan/candidates'
import { plansOf, trimPlans } from '../plan/plan-budget'
import { turnsToAttribute, type PlanEvidence } from '../plan/ownership'
import type { Candidate } from '../plan/planner'
import { addKey, parseTurnKey } from '../store/paths'
import { Records } from '../store/records'
import type { TurnRecord } from '../store/records'
import { buildSteps } from './steps'
import { markTurns } from '../plan/turn-status'
import { commitRestore, runSteps, stepEnv, type ApplyHooks } from './restore-run'
import type { StepEnv } from './step-env'
import type { ApplyChoices, ApplyResult, Entry, Plan, PlanAction, PlanTarget, TurnKey } from '../types'
import { addMissingParents, toRead } from '../plan/touched'
import { registeredTurns } from '../store/project-registry'
import { withWrote } from './recovery-check'
import { oversizeWarnings, planState, withParentFolders } from './restore-metadata'
import { journalSinceHead } from '../capture/journal-check'
import { recordChain, type FolderIds } from './folder-chain'
import { onAnotherFileSystem } from '../plan/mount-points'
import { xattrNotes } from '../store/xattrs'

/** `sinceHead`: what the change journals reported since the head snapshot (journalForPlan). */
export function makePlan(e: Engine, target: PlanTarget, evidence: PlanEvidence = {}, sinceHead?: Map<string, Set<string>>): Plan {
  // Another instance's store on the same folders: its turns are weighed like another project's.
  const given = new Set((evidence.foreign ?? []).map((f) => `${f.turn.sessionID}/${f.turn.messageID}`))
  const fromRegistry = e.registry ? registeredTurns(e.registry, e.storeDir, e.roots).filter((f) => !given.has(`${f.turn.sessionID}/${f.turn.messageID}`)) : []
  if (fromRegistry.length) evidence = { ...evidence, foreign: [...(evidence.foreign ?? []), ...fromRegistry] }
  return registered(e, buildPlan(e, target, evidence, sinceHead))
}

/**
 * The change journals' events since the head snapshot, for a plan's preview (planner.ts
 * PlanContext). Under the lock, briefly, so its barrier never runs beside a capture's; when the
 * lock is busy the plan looks at every path itself.
 */
export async function journalForPlan(e: Engine): Promise<Map<string, Set<string>> | undefined> {
  try {
    await e.lock.acquire('plan', 0, false)
  } catch {
    return undefined
  }
  try {
    return await journalSinceHead(e.roots, e.watchers)
  } finally {
    e.lock.release()
  }
}

/** The turns a plan of `target` would weigh (its own and overlapping ones), for attribution. */
export function planTurns(e: Engine, target: PlanTarget): TurnKey[] {
  const found = planScope(e, target)
  return found ? turnsToAttribute(e, found.turns) : []
}

function planScope(e: Engine, target: PlanTarget): { key: TurnKey; turn: TurnRecord; turns: TurnRecord[]; later: TurnRecord[] } | null {
  const key = parseTurnKey('backTo' in target ? target.backTo : target.turnKey)
  const turn = e.records.turns.get(Records.key(key))
  if (!turn) return null
  const after = e.records.sessionTurns(key.sessionID).filter((t) => t.seq > turn.seq && t.status !== 'restored')
  return 'backTo' in target ? { key, turn, turns: [turn, ...after], later: [] } : { key, turn, turns: [turn], later: after }
}

export function makeUndoPlan(e: Engine, restoreId: string): Plan {
  return registered(e, buildUndoPlan(e, restoreId))
}

/** Empty plans (nothing to do, with a warning) are registered too: applying one is a no-op. */
function registered(e: Engine, plan: Plan): Plan {
  if (!plansOf(e).has(plan.planId)) remember(e, plan, new Map())
  return plan
}

function remember(e: Engine, plan: Plan, cands: Map<string, Candidate>): void {
  const plans = plansOf(e)
  plans.set(plan.planId, { plan, cands })
  trimPlans(plans)
}

function buildPlan(e: Engine, target: PlanTarget, evidence?: PlanEvidence, sinceHead?: Map<string, Set<string>>): Plan {
  e.assertOpen()
  const warnings: string[] = []
  const backTo = 'backTo' in target
  const scope = planScope(e, target)
  if (!scope) {
    const key = parseTurnKey(backTo ? target.backTo : target.turnKey)
    return emptyPlan(backTo ? 'backTo' : 'turn', [`no checkpoint for ${Records.key(key)}; nothing will be restored`], key)
  }
  const { key, turns, later } = scope
  if (turns.some((t) => t.status === 'open')) {
    return emptyPlan(backTo ? 'backTo' : 'turn', ['a turn is still running (not sealed); seal it before restoring'], key)
  }
  const cands = turnCandidates(e, turns, later, warnings, evidence)
  const plan = emptyPlan(backTo ? 'backTo' : 'turn', warnings, key)
  plan.turns = turns.map(toKey)
  if (!cands) return plan
  finishPlan(e, plan, cands, sinceHead)
  if (plan.actions.some((a) => a.kind === 'conflict' && a.reason?.startsWith('changed by a later turn'))) plan.suggestion = { backTo: key }
  return plan
}

function buildUndoPlan(e: Engine, restoreId: string): Plan {
  e.assertOpen()
  const r = e.records.restores.get(restoreId)
  const plan = emptyPlan('undo', [])
  plan.target.restoreId = restoreId
  if (!r) {
    plan.warnings.push(`no restore ${restoreId}; nothing to undo`)
    return plan
  }
  const pre = e.snaps.state(r.pre)
  const post = e.snaps.state(r.post)
  if (!pre || !post) {
    plan.warnings.push(`the checkpoint of restore ${restoreId} is missing; nothing to undo`)
    return plan
  }
  plan.turns = r.turns
  finishPlan(e, plan, undoCandidates(e, pre, withWrote(post, r.wrote), r.touched))
  return plan
}

function finishPlan(e: Engine, plan: Plan, cands: Candidate[], sinceHead?: Map<string, Set<string>>): void {
  const byId = new Map<string, Candidate>()
  const ctx = new PlanContext(cands, sinceHead ? { head: e.headState(), dirty: sinceHead } : null, () => planState(e, plan, 'recorded'))
  for (const c of cands) {
    const a = classify(e, c, true, ctx)
    plan.actions.push(a)
    byId.set(a.id, c)
  }
  // By root, then path (compared apart: a joined string per comparison was ~40,000 for an install).
  plan.actions.sort((a, b) => (a.root !== b.root ? (a.root < b.root ? -1 : 1) : a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  plan.warnings.push(...oversizeWarnings(plan, e.maxFileBytes))
  remember(e, plan, byId)
}

/** The touched paths no step names (journal.ts intentTouched puts the two back together). */
function besidesSteps(touched: Map<string, Set<string>>, steps: Step[]): Record<string, string[]> {
  // By root, keys as they are (no joined string per path of an install).
  const named = new Map<string, Set<string>>()
  for (const s of steps) addKey(named, s.root, s.key)
  const out: Record<string, string[]> = {}
  for (const [rid, keys] of touched) {
    const mine = named.get(rid)
    const rest = mine ? [...keys].filter((k) => !mine.has(k)) : [...keys]
    if (rest.length) out[rid] = rest
  }
  return out
}

const toKey = (t: TurnRecord): TurnKey => ({ sessionID: t.sessionID, messageID: t.messageID })
const ACTIVE = new Set(['restore', 'delete', 'recreate'])

export async function applyPlan(e: Engine, given: Plan, choices: ApplyChoices = {}, hooks: ApplyHooks = {}): Promise<ApplyResult> {
  e.assertOpen()
  const known = plansOf(e).get(given.planId)
  const warnings = known ? [...known.plan.warnings] : ['unknown or expired plan; make a new plan']
  const result: ApplyResult = { restoreId: null, status: known ? 'noop' : 'cancelled', applied: [], skipped: [], failed: [], turnsMarkedRestored: false, warnings }
  if (!known) return result
  const plan = known.plan
  const keep = new Set(choices.keep ?? [])
  const overwrite = new Set((choices.overwrite ?? []).filter((id) => !keep.has(id)))
  const conflicts = plan.actions.filter((a) => a.kind === 'conflict' && !overwrite.has(a.id) && !keep.has(a.id))
  if (conflicts.length && choices.onConflict !== 'restore-rest') {
    // Never roll back silently while files would be skipped: the user has to choose.
    result.status = 'cancelled'
    result.warnings.push(choices.onConflict === 'cancel' ? 'cancelled by the user' : `${conflicts.length} file(s) changed since the turn; choose restore-rest, overwrite or cancel`)
    for (const c of conflicts) result.skipped.push({ root: c.root, path: c.path, reason: c.reason ?? 'conflict' })
    return result
  }
  const cands = known.cands
  await e.lock.acquire('restore')
  try {
    // Re-check every path under the lock: the plan may be stale.
    const todo: PlanAction[] = []
    // What each path and the folders above it hold now: every step checks them again right before it acts.
    const guards = new Map<string, Entry | null>()
    const folders: FolderIds = new Map()
    const ctx = new PlanContext(cands.values(), null, () => planState(e, plan, 'recorded'))
    for (const a of plan.actions) {
      const c = cands.get(a.id)
      if (!c) continue
      if (keep.has(a.id) && a.kind !== 'nothing') {
        result.skipped.push({ root: a.root, path: a.path, reason: 'kept as it is, as you chose' })
        continue
      }
      if (!known.applied && a.kind === 'delete' && (c.expected?.type === 'file' || c.expected?.type === 'symlink')) {
        // A file or link the turn made: re-checked in its own step, just before the unlink.
        const mount = ctx.mounts.above(c.root, c.key, false)
        if (mount !== null) {
          result.skipped.push({ root: a.root, path: a.path, reason: onAnotherFileSystem(c, mount).reason! })
          continue
        }
        guards.set(`${c.root.id}:${c.key}`, c.expected)
        recordChain(folders, c.root.abs, c.key)
        todo.push(a)
        continue
      }
      const now = classify(e, c, false, ctx)
      if (ACTIVE.has(now.kind) || (now.kind === 'conflict' && overwrite.has(a.id))) {
        guards.set(`${c.root.id}:${c.key}`, now.actual ?? null)
        recordChain(folders, c.root.abs, c.key)
      }
      if (a.kind === 'conflict' && overwrite.has(a.id)) {
        if (now.kind === 'nothing') continue
        if (now.kind === 'conflict' && now.actualHash === (a.actualHash ?? null) && now.actual?.type === a.actual?.type) todo.push({ ...now, kind: 'restore' })
        else if (ACTIVE.has(now.kind)) todo.push(now)
        else result.skipped.push({ root: a.root, path: a.path, reason: 'changed again after the plan was made; not overwritten' })
      } else if (ACTIVE.has(now.kind)) todo.push(now)
      else if (now.kind === 'conflict') result.skipped.push({ root: a.root, path: a.path, reason: now.reason ?? 'conflict' })
      else if (now.kind === 'not-checkpointed') result.skipped.push({ root: a.root, path: a.path, reason: now.reason! })
    }
    const pendingTurns = plan.turns.filter((k) => e.records.turns.get(Records.key(k))?.status !== 'restored')
    if (todo.length === 0) {
      // Nothing left to write: skipped paths are conflicts the user chose to keep or paths that
      // were never checkpointed, both reported; the turns count as restored.
      if (plan.target.kind !== 'undo' && pendingTurns.length) {
        markTurns(e, plan.turns, 'restored', 'noop')
        result.turnsMarkedRestored = true
      }
      return result
    }
    known.applied = true
    const restoreId = `${Date.now().toString(36)}-${crypto.randomBytes(4).toString('hex')}`
    const touched = new Map<string, Set<string>>()
    for (const a of todo) addKey(touched, e.rootIdOf(a.root), a.path)
    const missing = addMissingParents(e, todo, touched)
    const pre = await e.captureKeys(toRead(e, todo, touched))
    const steps = withParentFolders(buildSteps(todo, e.rootIdOf), missing, planState(e, plan, 'target'))
    const intent: Intent = {
      type: 'intent',
      restoreId,
      kind: plan.target.kind,
      turns: plan.turns,
      pre,
      touched: besidesSteps(touched, steps),
      steps,
      undoOf: plan.target.restoreId,
    }
    const journal = new Journal(journalFile(e.storeDir, restoreId), intent)
    const env: StepEnv = stepEnv(e, restoreId, hooks, guards, folders)
    const r = await runSteps(e, env, journal, intent, new Set(), hooks)
    const someLeft = r.failedKeys.size > 0 || r.untouched.size > 0
    for (const a of todo) {
      const k = someLeft ? `${e.rootIdOf(a.root)}:${a.path}` : ''
      if (!someLeft || (!r.failedKeys.has(k) && !r.untouched.has(k))) result.applied.push({ root: a.root, path: a.path, kind: a.kind })
    }
    result.failed.push(...r.failed)
    result.skipped.push(...r.kept)
    result.warnings.push(...xattrNotes(env))
    hooks.onBytesWritten?.(env.bytesWritten.n)
    // Only failures keep the turns unrestored; skips are the user's choice or known-unrestorable.
    const done = await commitRestore(e, journal, intent, r.failed.length === 0, r.untouched)
    result.restoreId = restoreId
    result.status = r.failed.length ? 'partial' : 'done'
    result.turnsMarkedRestored = done && intent.kind !== 'undo'
    return result
  } finally {
    e.lock.release()
  }
}
