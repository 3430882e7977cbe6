// A plan's candidates: the paths a restore may have to put back, each with the state to put back
// (target, the pre-image's) and the state the turn left (expected), before the disk is looked at
// (planner.ts classifies each). Only paths in the turn's own snapshot deltas are candidates.
import { markOwners, type PlanEvidence } from './ownership'
import { CaptureCoverage } from '../capture/coverage'
import { contentChanged } from '../capture/current'
import { parentKey } from '../store/paths'
import type { TurnRecord } from '../store/records'
import type { RootRuntime } from '../store/roots'
import type { State } from '../store/snapshot-deltas'
import type { Candidate, EngineParts } from './plan-parts'

/** Candidates for undoing turns `turns` (in order) back to the pre-image of the first. */
export function turnCandidates(p: EngineParts, turns: TurnRecord[], later: TurnRecord[], warnings: string[], evidence: PlanEvidence = {}): Candidate[] | null {
  const first = turns[0]!
  const pre = p.snaps.state(first.pre)
  if (!pre) {
    warnings.push(`the checkpoint of ${first.sessionID}/${first.messageID} is missing or unreadable; nothing will be restored`)
    return null
  }
  const byPath = new Map<string, Candidate>()
  const coverage = new Map<string, CaptureCoverage | null>()
  const covered = (root: RootRuntime, key: string, isDir: boolean): boolean => {
    if (!coverage.has(root.id)) {
      // Records from before coverage was kept: judged with the root's rules of today.
      const rules = first.coverage ? first.coverage[root.id] : { excludes: root.config.excludes ?? [], gitignore: root.config.gitignore !== false }
      coverage.set(root.id, rules ? new CaptureCoverage(rules, pre.get(root.id) ?? new Map(), p.blobs) : null)
    }
    return coverage.get(root.id)?.covers(key, isDir) ?? false
  }
  // Folders the capture covered and did not hold, by root, and those inside them. Why: an
  // install's thousands of new files sit in a few dozen new folders, and matching each file against
  // the capture's rules (twice: as a file and as a folder) was half of its plan.
  const absentDirs = new Map<string, Map<string, boolean>>()
  const absentDir = (root: RootRuntime, dir: string): boolean => {
    // On a case-insensitive root "Foo" missing from the pre-image proves nothing when "foo" is in
    // it (a case-only rename): such roots match each file against the rules, as before.
    if (dir === '' || root.caseInsensitive) return false
    let memo = absentDirs.get(root.id)
    if (!memo) absentDirs.set(root.id, (memo = new Map()))
    let absent = memo.get(dir)
    if (absent === undefined) {
      absent = !pre.get(root.id)?.has(dir) && (covered(root, dir, true) || absentDir(root, parentKey(dir)))
      memo.set(dir, absent)
    }
    return absent
  }
  const absentAbove = (root: RootRuntime, key: string): boolean => absentDir(root, parentKey(key))
  for (const t of turns) {
    const before = p.snaps.state(t.pre)
    const after = t.post ? p.snaps.state(t.post) : null
    if (!before || !after) {
      warnings.push(`the checkpoint of ${t.sessionID}/${t.messageID} is ${t.post ? 'missing or unreadable' : 'not sealed'}; nothing will be restored`)
      return null
    }
    // Only paths in the deltas between the turn's two snapshots can differ (cost ∝ changes).
    const changed = t.pre === t.post ? new Map<string, Set<string>>() : p.snaps.changedKeys(t.pre, t.post!)
    for (const root of p.roots) {
      if (root.shared) continue
      const b = before.get(root.id) ?? new Map()
      const a = after.get(root.id) ?? new Map()
      const keys = changed ? (changed.get(root.id) ?? new Set<string>()) : new Set([...b.keys(), ...a.keys()])
      const preRoot = pre.get(root.id)
      for (const key of keys) {
        const expected = a.get(key)
        if (!contentChanged(b.get(key), expected)) continue
        const id = `${root.id}:${key}`
        const target = preRoot?.get(key)
        // What stood there at the capture is unknown (an excluded folder is not recorded): a path
        // counts as covered only if it would have been recorded as a file and as a folder alike,
        // or if a folder above it is known to have been absent (nothing below it was there).
        const uncovered = !target && !absentAbove(root, key) && !(covered(root, key, false) && covered(root, key, true))
        byPath.set(id, { root, key, target, expected, uncovered })
      }
    }
  }
  // A later turn that is still applied and changed the same path owns its current state.
  for (const t of later) {
    const before = p.snaps.state(t.pre)
    const after = t.post ? p.snaps.state(t.post) : null
    if (!before || !after) continue
    const changed = t.post ? p.snaps.changedKeys(t.pre, t.post) : null
    for (const c of byPath.values()) {
      if (changed && !changed.get(c.root.id)?.has(c.key)) continue
      if (contentChanged(before.get(c.root.id)?.get(c.key), after.get(c.root.id)?.get(c.key))) c.laterTurn ??= { sessionID: t.sessionID, messageID: t.messageID }
    }
  }
  const out = [...byPath.values()]
  markOwners(p, turns, out, evidence)
  return out
}

/** Candidates for undoing a restore: the touched paths back to the pre-restore snapshot. */
export function undoCandidates(p: EngineParts, pre: State, post: State, touched: Record<string, string[]>): Candidate[] {
  const out: Candidate[] = []
  for (const root of p.roots) {
    for (const key of touched[root.id] ?? []) out.push({ root, key, target: pre.get(root.id)?.get(key), expected: post.get(root.id)?.get(key) })
  }
  return out
}
