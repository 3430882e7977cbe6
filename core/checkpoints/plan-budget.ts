// How many plans are kept for a later apply. Why a size bound beside the count: a plan lists every
// path it would touch, and an install turn's lists thousands (3,460 paths held ~0.9 MB); the 64
// newest plans of a 14,000-file install would hold ~240 MB in the main process, for a user who
// opened its restore sheet again and again. A plan dropped is one its sheet can no longer apply:
// the user is asked to open the restore again, never shown a stale one.

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
