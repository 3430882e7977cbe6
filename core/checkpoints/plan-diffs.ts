// The preview diffs a plan could not make on the calling thread. A plan is built synchronously
// (restore.ts finishPlan) with its diffs under a shared budget (diff.ts withDiffBudget); a diff
// that ran past it is marked deferred and left without text. This pass makes those diffs on the
// diff worker, so a plan of large rewrites costs the host's main thread the budget, not the search.
import crypto from 'node:crypto'
import fs from 'node:fs'
import type { Engine } from './engine'
import { diffOffThread } from './diff-worker'
import { assertParentInside, keyToAbs } from './paths'
import type { Plan, PlanAction } from './types'
import { os } from './os-names'

/** Main-thread time a plan may spend on diff search, all files together. */
export const PLAN_DIFF_BUDGET_MS = 25

const DIFFED = new Set(['restore', 'delete', 'recreate', 'conflict'])

/**
 * Was this action's diff deferred? planner.ts addDiff sets `binary` only once it ran a diff, and a
 * text diff without text is either deferred or past the edit cap (then the worker, which has the
 * same cap, gives counts again: wasted off-thread work, never a wrong diff).
 */
const deferred = (a: PlanAction): boolean => DIFFED.has(a.kind) && a.binary === false && a.diff === undefined

export async function completeDiffs(e: Engine, plan: Plan): Promise<Plan> {
  let slice = performance.now()
  for (const a of plan.actions.filter(deferred)) {
    // Small diffs are made inline (diffOffThread): let other events in between, every ~10 ms.
    if (performance.now() - slice > 10) {
      await new Promise((resolve) => setImmediate(resolve))
      slice = performance.now()
    }
    // The same two sides addDiff compared: the disk as the plan saw it (checked by hash: a file
    // changed since is not previewed from its new content) and the stored target.
    let cur: Uint8Array | null = null
    if (a.actual) {
      if (a.actual.type !== 'file' || !a.actual.hash) continue
      const root = e.rootById.get(e.rootIdOf(a.root))
      if (!root) continue
      let buf: Buffer
      try {
        // Never read through a folder swapped for a link since the plan (as classify checks).
        const abs = keyToAbs(root.abs, a.path)
        assertParentInside(root.real, abs)
        buf = fs.readFileSync(os(abs))
      } catch {
        continue
      }
      if (crypto.createHash('sha256').update(buf).digest('hex') !== a.actual.hash) continue
      cur = buf
    }
    let tgt: Uint8Array | null = null
    if (a.target) {
      if (a.target.type !== 'file' || !a.target.hash) continue
      tgt = e.blobs.read(a.target.hash)
      if (!tgt) continue
    }
    const d = await diffOffThread(cur, tgt, a.path)
    if (d.text !== undefined) a.diff = d.text
  }
  return plan
}
