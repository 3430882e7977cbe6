// Which restore plans stay in memory for a later apply: the newest, within a count and a size
// (paths listed). What a user would notice: a restore sheet opened long ago asks to be opened
// again instead of the main process growing by hundreds of MB; the sheet on screen always applies.
import { describe, expect, it } from 'vitest'
import { KEPT_PLAN_PATHS, KEPT_PLANS, trimPlans } from '../../../core/checkpoints/plan/plan-budget'

const plans = (...sizes: number[]): [string, number][] => sizes.map((n, i) => [`p${i}`, n])
/** The ids trimPlans drops from plans of these sizes (oldest first). */
function dropped(sized: [string, number][], maxPlans?: number, maxPaths?: number): string[] {
  const kept = new Map(sized.map(([id, n]) => [id, { plan: { actions: new Array<null>(n).fill(null) } }]))
  trimPlans(kept, maxPlans, maxPaths)
  return sized.map(([id]) => id).filter((id) => !kept.has(id))
}

describe('trimPlans', () => {
  it('keeps everything within both bounds', () => {
    expect(dropped(plans(10, 20, 30), 4, 100)).toEqual([])
    expect(dropped(plans(10, 20, 30), 3, 60)).toEqual([])
  })

  it('drops the oldest plans past the count', () => {
    expect(dropped(plans(1, 1, 1, 1, 1), 3, 100)).toEqual(['p0', 'p1'])
  })

  it('drops the oldest plans until the paths they list fit, however few plans there are', () => {
    // Three install plans of 40,000 paths each: only the two newest fit in 100,000.
    expect(dropped(plans(40_000, 40_000, 40_000))).toEqual(['p0'])
    expect(dropped(plans(90_000, 5, 5, 20_000))).toEqual(['p0'])
  })

  it('never drops the newest plan, even one larger than the whole budget', () => {
    expect(dropped(plans(10, 250_000))).toEqual(['p0'])
    expect(dropped(plans(250_000))).toEqual([])
  })

  it('by default: the 64 newest plans, and at most 100,000 paths', () => {
    expect(dropped(plans(...new Array(KEPT_PLANS + 1).fill(1)))).toEqual(['p0'])
    expect(dropped(plans(KEPT_PLAN_PATHS / 2, KEPT_PLAN_PATHS / 2))).toEqual([])
    expect(dropped(plans(KEPT_PLAN_PATHS / 2, KEPT_PLAN_PATHS / 2, 1))).toEqual(['p0'])
  })
})
