// plan(): what a restore would do, per path, without writing anything. For each path the turn(s)
// changed: target = the state to put back, expected = the after-state the engine recorded, actual
// = the disk now. actual == target → nothing; actual == expected → restore/delete/recreate;
// otherwise a conflict, which is never overwritten unless the user chooses so for that path.
import crypto from 'node:crypto'
import fs from 'node:fs'
import { markOwners, type PlanEvidence } from './ownership'
import { CaptureCoverage } from './coverage'
import { contentChanged, currentEntry, describeMismatch, matches } from './current'
import { diffBuffers } from './diff'
import { LinkProbe } from './link-probe'
import { NewMounts, onAnotherFileSystem } from './mount-points'
import { assertParentInside, keyToAbs, parentKey } from './paths'
import type { TurnRecord } from './records'
import type { RootRuntime } from './roots'
import type { State } from './snapshots'
import type { Entry, Plan, PlanAction, TurnKey } from './types'
import { os } from './os-names'
import type { Candidate, EngineParts } from './plan-parts'

export type { Candidate, EngineParts } from './plan-parts'

// Plans are kept (by id, the most recent within plan-budget.ts's bounds) with the candidates they
// were made from, so apply re-checks each path under the lock and never trusts entries sent back
// over IPC: a plan object from the renderer is only a reference to one of these by planId (restore.ts).
// Held per store (Engine.plans): a plan from a store that was closed and reopened (roots may have
// changed) is unknown to the new one.
// `applied`: a plan applied once is re-checked in full if applied again (its deletes are no longer
// deferred to their steps), so a second apply of it is the no-op it should be.
export type PlanRegistry = Map<string, { plan: Plan; cands: Map<string, Candidate>; applied?: boolean }>

const DIFF_LIMIT = 1 << 20
export const BULK_DELETES = 200

export function emptyPlan(kind: Plan['target']['kind'], warnings: string[], turnKey?: TurnKey): Plan {
  return { planId: crypto.randomUUID(), target: { kind, turnKey }, turns: [], actions: [], warnings, createdAt: Date.now() }
}

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
      const keys = changed ? (changed.get(root.id) ?? new Set<string>()) : unionKeys(b, a)
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

function unionKeys(a: Map<string, Entry>, b: Map<string, Entry>): Set<string> {
  const s = new Set(a.keys())
  for (const k of b.keys()) s.add(k)
  return s
}

/**
 * What one plan's candidates know about each other: a folder the turn replaced by a symlink comes
 * back as a folder before its old contents are written (steps.ts: links are removed first), so a
 * path below such a link is judged as the empty folder will hold it, not through the link.
 */
export class PlanContext {
  private readonly probes = new Map<string, LinkProbe>()
  /**
   * A plan's preview only (never apply's re-check): the head snapshot and, by root, the keys its
   * trusted change journal reported since (journal-check.ts journalSinceHead). A path with no
   * event, itself or above, and recorded in the head snapshot is what that snapshot says, with no
   * `lstat`: an install's plan is then cost ∝ changes. Safe because apply looks again before it
   * acts (its re-check, and each delete's own check in its step).
   */
  private readonly sinceHead: { head: State; dirty: Map<string, Set<string>> } | null
  private readonly folders = new Set<string>()
  private readonly quiet = new Map<string, Map<string, boolean>>()
  /** Real paths of parent folders, resolved once per plan (see assertParentInside). */
  readonly parents = new Map<string, string>()
  /**
   * More than BULK_DELETES paths to delete (an install turn): deletes get no preview diff (each
   * would be every line of the file shown as removed, most of such a plan's time). The plan
   * still lists every path and its size.
   */
  readonly bulkDeletes: boolean
  /** Folders mounted over since the checkpoint (mount-points.ts). */
  readonly mounts: NewMounts

  /** `recorded`: the state the plan rolls back from (see NewMounts). */
  constructor(cands: Iterable<Candidate>, sinceHead: { head: State | null; dirty: Map<string, Set<string>> } | null = null, recorded: () => State | null = () => null) {
    this.mounts = new NewMounts(recorded)
    this.sinceHead = sinceHead?.head && sinceHead.dirty.size ? { head: sinceHead.head, dirty: sinceHead.dirty } : null
    let deletes = 0
    for (const c of cands) {
      if (c.target?.type === 'dir') this.folders.add(`${c.root.id}:${c.key}`)
      if (!c.target) deletes++
    }
    this.bulkDeletes = deletes > BULK_DELETES
  }

  probe(root: RootRuntime): LinkProbe {
    let p = this.probes.get(root.id)
    if (!p) this.probes.set(root.id, (p = new LinkProbe(root.abs)))
    return p
  }

  /** The head snapshot's entry of a path no event touched since (see sinceHead), or null. */
  unchangedSinceHead(c: Candidate): Entry | null {
    const dirty = this.sinceHead?.dirty.get(c.root.id)
    // An absence proves nothing: the head snapshot does not record what its rules exclude.
    const recorded = dirty ? this.sinceHead!.head.get(c.root.id)?.get(c.key) : undefined
    // The snapshot's own object, as a plan's target and expected are: nothing writes to a plan's entries.
    return recorded && !dirty!.has(c.key) && this.quietFolder(c.root.id, dirty!, parentKey(c.key)) ? recorded : null
  }

  /** No event for `folder` nor a folder above it (see sinceHead), kept per folder. */
  private quietFolder(rootId: string, dirty: Set<string>, folder: string): boolean {
    if (folder === '') return true
    let memo = this.quiet.get(rootId)
    if (!memo) this.quiet.set(rootId, (memo = new Map()))
    let quiet = memo.get(folder)
    if (quiet === undefined) memo.set(folder, (quiet = !dirty.has(folder) && this.quietFolder(rootId, dirty, parentKey(folder))))
    return quiet
  }

  becomesFolder(root: RootRuntime, key: string): boolean {
    return this.folders.has(`${root.id}:${key}`)
  }
}

const refuse = (c: Candidate, reason: string): PlanAction => ({
  id: `${c.root.id}:${c.key}`,
  root: c.root.abs,
  path: c.key,
  kind: 'conflict',
  target: c.target,
  expected: c.expected,
  reason,
  expectedHash: c.expected?.hash ?? null,
  actualHash: null,
})
const notKept = (e: Entry | undefined): boolean => e?.type === 'oversize'

/** Classify one candidate against the disk now (once per path per plan, and again under the lock: no closures made per call). */
export function classify(p: EngineParts, c: Candidate, withDiff: boolean, ctx: PlanContext): PlanAction {
  const abs = keyToAbs(c.root.abs, c.key)
  const link = ctx.probe(c.root).linkedAncestor(c.key)
  const replaced = link !== null && ctx.becomesFolder(c.root, link)
  if (!replaced) {
    try {
      assertParentInside(c.root.real, abs, ctx.parents, c.root.abs)
    } catch (err) {
      // A parent folder replaced by a symlink leading out of the root: never read or write there.
      return refuse(c, (err as Error).message)
    }
    // A link to elsewhere in the project: reading through it would judge another folder's file.
    if (link !== null) return refuse(c, `the folder ${link} above it is a link now; nothing is read or written through it`)
    const mount = ctx.mounts.above(c.root, c.key, c.target?.type === 'dir' || c.expected?.type === 'dir')
    if (mount !== null) return onAnotherFileSystem(c, mount)
  }
  // Below a link that the plan turns back into a folder, nothing exists yet.
  const actual = link === null ? (ctx.unchangedSinceHead(c) ?? currentEntry(abs, c.root.caseInsensitive, p.blobs, p.maxFileBytes, c.expected)) : undefined
  const base: PlanAction = { id: `${c.root.id}:${c.key}`, root: c.root.abs, path: c.key, kind: 'nothing', target: c.target, expected: c.expected, actual }
  if (matches(actual, c.target) && !notKept(c.target)) return base
  if (notKept(c.target) || (!c.target && notKept(c.expected))) {
    // Never checkpointed: the engine cannot put it back, and never deletes what it did not keep.
    const e = notKept(c.target) ? c.target! : c.expected!
    return {
      ...base,
      kind: 'not-checkpointed',
      reason:
        e.size > p.maxFileBytes ? `not restorable: over the ${sizeLabel(p.maxFileBytes)} limit, never checkpointed` : 'not restorable: it could not be read when checkpointed',
    }
  }
  if (c.uncovered) {
    // It may well have existed before the turn: the capture did not look (see coverage.ts).
    return {
      ...base,
      kind: 'not-checkpointed',
      reason: 'not checkpointed before this turn (excluded by .gitignore or your exclude rules then, or outside the folders covered): left as it is',
    }
  }
  if (c.ownedBy && !matches(actual, c.target)) {
    // The other session's tools wrote it and this turn's could not have: its work, never touched.
    const by = c.byRestore ? `put back by a restore (${c.byRestore}) during this turn` : `written by session ${c.ownedBy.sessionID}'s turn`
    return { ...base, kind: 'not-this-turn', reason: `${by}, not this one: left as it is` }
  }
  // Asked once: an install's plan classifies thousands of deletes.
  const asRecorded = matches(actual, c.expected)
  if (asRecorded && c.outside) {
    // None of this turn's tools wrote it: the user's editor, a build watcher. Kept unless chosen.
    const reason = 'changed outside the agent during this turn (none of its tools wrote it): kept unless you roll it back'
    const conflict: PlanAction = { ...base, kind: 'conflict', reason, expectedHash: c.expected?.hash ?? null, actualHash: actual?.hash ?? null }
    return withDiff ? addDiff(p, abs, conflict) : conflict
  }
  if (asRecorded && c.otherTurn) {
    // Maybe the other session's work: never rolled back unless the user says so for this file.
    const reason = c.byRestore
      ? `put back by a restore (${c.byRestore}) during this turn: kept unless you roll it back`
      : `changed while session ${c.otherTurn.sessionID} was running: kept unless you roll it back`
    const conflict: PlanAction = { ...base, kind: 'conflict', reason, expectedHash: c.expected?.hash ?? null, actualHash: actual?.hash ?? null }
    return withDiff ? addDiff(p, abs, conflict) : conflict
  }
  if (asRecorded) {
    const kind = !c.target ? 'delete' : !actual ? 'recreate' : 'restore'
    if (kind !== 'delete' && c.target?.type === 'file' && !p.blobs.has(c.target.hash ?? '')) {
      // A damaged store: say so before anything is touched, instead of failing half-way.
      return { ...base, kind: 'not-checkpointed', reason: 'cannot restore: the checkpoint’s copy of this file is missing from the store' }
    }
    base.kind = kind // this call's own object: no copy of it per path
    return withDiff && !(kind === 'delete' && ctx.bulkDeletes) ? addDiff(p, abs, base) : base
  }
  const reason = c.laterTurn ? `changed by a later turn (${c.laterTurn.messageID})` : describeMismatch(actual, c.expected)
  const conflict: PlanAction = { ...base, kind: 'conflict', reason, expectedHash: c.expected?.hash ?? null, actualHash: actual?.hash ?? null }
  return withDiff ? addDiff(p, abs, conflict) : conflict
}

function addDiff(p: EngineParts, abs: string, a: PlanAction): PlanAction {
  const cur = a.actual?.type === 'file' && a.actual.size <= DIFF_LIMIT ? readOr(abs) : a.actual ? undefined : null
  const tgt = a.target?.type === 'file' && a.target.hash && a.target.size <= DIFF_LIMIT ? (p.blobs.read(a.target.hash) ?? undefined) : a.target ? undefined : null
  if (cur === undefined || tgt === undefined) return a
  if (a.actual && a.actual.type !== 'file') return a
  if (a.target && a.target.type !== 'file') return a
  const d = diffBuffers(cur, tgt, a.path)
  return { ...a, binary: d.binary, diff: d.text }
}

function readOr(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(os(file))
  } catch {
    return undefined
  }
}

export function sizeLabel(bytes: number): string {
  if (bytes >= 1 << 30) return `${+(bytes / (1 << 30)).toFixed(1)} GB`
  if (bytes >= 1 << 20) return `${+(bytes / (1 << 20)).toFixed(1)} MB`
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`
  return `${bytes} bytes`
}
