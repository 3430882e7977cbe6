// plan(): what a restore would do, per path, without writing anything. For each path the turn(s)
// changed: target = the state to put back, expected = the after-state the engine recorded, actual
// = the disk now. actual == target → nothing; actual == expected → restore/delete/recreate;
// otherwise a conflict, which is never overwritten unless the user chooses so for that path.
// Which paths a plan looks at (its candidates) comes from candidates.ts.
import crypto from 'node:crypto'
import fs from 'node:fs'
import { currentEntry, describeMismatch, matches } from '../capture/current'
import { diffBuffers } from './diff'
import { LinkProbe } from '../capture/link-probe'
import { NewMounts, onAnotherFileSystem } from './mount-points'
import { assertParentInside, keyToAbs, parentKey } from '../store/paths'
import type { RootRuntime } from '../store/roots'
import type { State } from '../store/snapshot-deltas'
import type { Entry, Plan, PlanAction, TurnKey } from '../types'
import { os } from '../store/os-names'
import type { Candidate, EngineParts } from './plan-parts'

export type { Candidate, EngineParts } from './plan-parts'

const DIFF_LIMIT = 1 << 20
export const BULK_DELETES = 200

export function emptyPlan(kind: Plan['target']['kind'], warnings: string[], turnKey?: TurnKey): Plan {
  return { planId: crypto.randomUUID(), target: { kind, turnKey }, turns: [], actions: [], warnings, createdAt: Date.now() }
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
  // Only files are read (never through a link: it may lead out of the project); no file is none.
  if (cur === undefined || tgt === undefined) return a
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
