// How many plans are kept for a later apply. Why a size bound beside the count: a plan lists every
// path it would touch, and an install turn's lists thousands (3,460 paths held ~0.9 MB); the 64
// newest plans of a 14,000-file install would hold ~240 MB in the main process, for a user who
// opened its restore sheet again and again. A plan dropped is one its sheet can no longer apply:
// the user is asked to open the restore again, never shown a stale one.
import type { Engine } from '../capture/engine'
import type { Candidate } from './plan-parts'
import type { Plan } from '../types'

// Plans are kept (by id, the most recent within these bounds) with the candidates they were made
// from, so apply re-checks each path under the lock and never trusts entries sent back over IPC: a
// plan object from the renderer is only a reference to one of these by planId (restore.ts).
// Held per store (plansOf): a plan from a store that was closed and reopened (roots may have
// changed) is unknown to the new one.
// `applied`: a plan applied once is re-checked in full if applied again (its deletes are no longer
// deferred to their steps), so a second apply of it is the no-op it should be.
export type PlanRegistry = Map<string, { plan: Plan; cands: Map<string, Candidate>; applied?: boolean }>
const registries = new WeakMap<Engine, PlanRegistry>()

/** The recent plans of one open store, made on first use. */
export function plansOf(e: Engine): PlanRegistry {
  let plans = registries.get(e)
  if (!plans) registries.set(e, (plans = new Map()))
  return plans
}

/** At most this many plans per store. */
export const KEPT_PLANS = 64
/** At most this many paths over all of them (~27 MB at an install's ~270 bytes per path). */
export const KEPT_PLAN_PATHS = 100_000

/**
 * Drop the oldest plans of `plans` (a Map: oldest first, as inserted) until what stays is within
 * both bounds. The newest is always kept, however large: it is the one on screen.
 */
export function trimPlans(plans: Map<string, { plan: { actions: readonly unknown[] } }>, maxPlans = KEPT_PLANS, maxPaths = KEPT_PLAN_PATHS): void {
  let paths = 0
  for (const { plan } of plans.values()) paths += plan.actions.length
  for (const [id, { plan }] of plans) {
    if (plans.size === 1 || (plans.size <= maxPlans && paths <= maxPaths)) return
    plans.delete(id)
    paths -= plan.actions.length
  }
}
