/**
 * Who changed each path a plan would touch (the rules are in attribution.ts): another session's
 * turn of this project running at the same time (windows compared by snapshot id), another
 * project's turn on a folder both checkpoint (an extra folder; windows compared by wall-clock time,
 * as the stores are separate), or the user's editor while no tool of the turn wrote the file.
 */
import { changedOutsideAgent, named, ownerInOverlap, type ToolUseLookup, type TurnToolUse } from './attribution'
import { contentChanged } from '../capture/current'
import { keyToAbs } from '../store/paths'
import type { Candidate, EngineParts } from './plan-parts'
import { originOf, type RestoreRecord, type TurnRecord } from '../store/records'
import type { ForeignTurn, TurnKey } from '../types'

export type { ForeignTurn } from '../types'

/** What the host knows beyond the store: the turns' tool use, other projects' turns. */
export interface PlanEvidence {
  tools?: ToolUseLookup
  foreign?: ForeignTurn[]
}

export function markOwners(p: EngineParts, turns: TurnRecord[], cands: Candidate[], evidence: PlanEvidence): void {
  const tools = evidence.tools ?? (() => undefined)
  const mine = toolUseOf(turns, tools)
  markRestores(p, turns, cands, mine)
  markOverlaps(p, turns, cands, mine, tools)
  markForeign(turns, cands, mine, tools, evidence.foreign ?? [])
  for (const c of cands) {
    // Only a turn whose tools are known and not opaque can have a path changed outside it: the paths
    // are built for those alone (two per candidate, thousands in an install's plan).
    if (!mine || mine.opaque) break
    if (!c.otherTurn && !c.ownedBy && changedOutsideAgent(mine, absOf(c), isDir(c))) c.outside = true
  }
}

const isDir = (c: Candidate) => c.expected?.type === 'dir' || c.target?.type === 'dir'

/**
 * Another project's turn that ran while this one did, on a folder both checkpoint: the stores are
 * separate, so when within the window a path changed is unknown — every change under the shared
 * folder during the overlap is weighed as in markOverlaps.
 */
function markForeign(turns: TurnRecord[], cands: Candidate[], mine: TurnToolUse | undefined, tools: ToolUseLookup, foreign: ForeignTurn[]): void {
  if (cands.length === 0 || foreign.length === 0) return
  const aStart = turns[0]!.createdAt
  const aEnd = turns[turns.length - 1]!.sealedAt ?? Date.now()
  for (const f of foreign) {
    if (f.createdAt >= aEnd || (f.sealedAt ?? Infinity) <= aStart) continue
    const theirs = tools(f.turn)
    for (const c of cands) {
      if (c.otherTurn || c.ownedBy) continue
      const abs = keyToAbs(c.root.real, c.key)
      if (!f.paths.some((r) => abs === r || abs.startsWith(r + '/'))) continue
      const owner = ownerInOverlap(mine, theirs, absOf(c), isDir(c))
      if (owner === 'other') c.ownedBy = f.turn
      else if (owner === 'unknown') c.otherTurn = f.turn
    }
  }
}

/**
 * The turns whose tool use a plan of `turns` may ask about: them, and every other session's turn
 * whose window may overlap theirs (a superset of what markOverlaps looks at).
 */
export function turnsToAttribute(p: EngineParts, turns: TurnRecord[]): TurnKey[] {
  const first = turns[0]
  const last = turns[turns.length - 1]
  if (!first || !last?.post) return []
  const aStart = snapNo(first.pre)
  const aEnd = snapNo(last.post)
  const others = p.records.allTurns().filter((b) => b.status !== 'restored' && snapNo(b.pre) < aEnd && (b.post ? snapNo(b.post) : Infinity) > aStart)
  const seen = new Set<string>()
  const out: TurnKey[] = []
  for (const t of [...turns, ...others]) {
    const k = `${t.sessionID}/${t.messageID}`
    if (!seen.has(k)) seen.add(k) && out.push({ sessionID: t.sessionID, messageID: t.messageID })
  }
  return out
}

/** The tool use of several turns of one plan together; unknown if any of them is unknown. */
function toolUseOf(turns: TurnRecord[], tools: ToolUseLookup): TurnToolUse | undefined {
  const paths = new Set<string>()
  let opaque = false
  for (const t of turns) {
    const use = tools({ sessionID: t.sessionID, messageID: t.messageID })
    if (!use) return undefined
    use.paths.forEach((x) => paths.add(x))
    opaque ||= use.opaque
  }
  return { paths, opaque }
}

/** The absolute path(s) a tool may have named for a candidate: through the root as opened, and its real path. */
export function absOf(c: Candidate): string[] {
  const a = keyToAbs(c.root.abs, c.key)
  const r = keyToAbs(c.root.real, c.key)
  return a === r ? [a] : [a, r]
}

/**
 * A restore made while this turn ran (a retake of another session, an undo) wrote the paths it
 * touched: they are someone else's writes, as another turn's. A path such a restore changed is the
 * restore's — left as it is — unless this turn's tools could have written it after (named it,
 * opaque or unknown): then nobody can tell, kept unless the user rolls it back. Without this, a
 * file a retake of session B brought back during A's turn looked created by A, and retaking A
 * deleted it again.
 */
function markRestores(p: EngineParts, turns: TurnRecord[], cands: Candidate[], mine: TurnToolUse | undefined): void {
  if (cands.length === 0) return
  // Each turn's own window: a restore between two turns of an undo-back-to is no turn's writes.
  const during = (r: RestoreRecord) => turns.some((t) => t.post !== null && snapNo(r.post) > snapNo(t.pre) && snapNo(r.pre) < snapNo(t.post))
  for (const r of p.records.restores.values()) {
    if (!during(r)) continue
    const before = p.snaps.state(r.pre)
    const after = p.snaps.state(r.post)
    const by = r.turns[0] ?? { sessionID: '', messageID: r.restoreId }
    const label = r.kind === 'undo' ? 'an undo of a retake' : `the retake of session ${by.sessionID}`
    // As sets: an install's restore touched thousands of paths, and its plan has as many.
    const touched = new Map(Object.entries(r.touched).map(([rid, keys]) => [rid, new Set(keys)]))
    for (const c of cands) {
      if (c.otherTurn || c.ownedBy || !touched.get(c.root.id)?.has(c.key)) continue
      if (before && after && !contentChanged(before.get(c.root.id)?.get(c.key), after.get(c.root.id)?.get(c.key))) continue
      const mineCould = !mine || mine.opaque || named(mine, absOf(c), isDir(c))
      c.byRestore = label
      if (mineCould) c.otherTurn = by
      else c.ownedBy = by
    }
  }
}

const snapNo = (id: string): number => Number(id)
const snapId = (n: number): string => String(n).padStart(12, '0')

/**
 * A retake undoes only its own turn. Sessions of one project share the store, so a turn's
 * capture→seal difference also holds what another session's turn did meanwhile. For every other
 * session's turn whose window (its capture to its seal, or to now while it runs) overlaps this
 * one's, a path that changed within the overlap cannot be told apart: it is marked with that turn,
 * and planned as a conflict (kept unless the user chooses to roll it back). Snapshot ids grow with
 * time, so windows are compared by id; a change before or after the overlap stays this turn's.
 */
function markOverlaps(p: EngineParts, turns: TurnRecord[], cands: Candidate[], mine: TurnToolUse | undefined, tools: ToolUseLookup): void {
  if (cands.length === 0) return
  const mineSessions = new Set(turns.map((t) => t.sessionID))
  const aStart = snapNo(turns[0]!.pre)
  const aEnd = snapNo(turns[turns.length - 1]!.post!)
  const all = p.records.allTurns()
  // A forked session's turns are copies of the original's records (same origin message id, same
  // snapshots): the same work, not another session's. A copy counts only when its original is gone.
  // (Another session's turn may have the very same snapshots — both captured and sealed with
  // nothing in between — but never the same origin.)
  const sameWork = (x: TurnRecord, y: TurnRecord) => x !== y && originOf(x) === originOf(y) && x.pre === y.pre && x.post === y.post
  const copy = (b: TurnRecord) => turns.some((t) => sameWork(b, t)) || (b.forkedFrom !== undefined && all.some((r) => !r.forkedFrom && sameWork(b, r)))
  for (const b of all) {
    if (mineSessions.has(b.sessionID) || b.status === 'restored' || copy(b)) continue
    const start = Math.max(aStart, snapNo(b.pre))
    const end = Math.min(aEnd, b.post ? snapNo(b.post) : Infinity)
    if (start >= end) continue
    const before = p.snaps.state(snapId(start))
    const after = p.snaps.state(snapId(end))
    const who = { sessionID: b.sessionID, messageID: b.messageID }
    const theirs = tools(who)
    for (const c of cands) {
      if (c.otherTurn || c.ownedBy) continue
      // Unknown states (a damaged store): nothing tells the turns apart, so none is assumed.
      if (before && after && !contentChanged(before.get(c.root.id)?.get(c.key), after.get(c.root.id)?.get(c.key))) continue
      const owner = ownerInOverlap(mine, theirs, absOf(c), c.expected?.type === 'dir' || c.target?.type === 'dir')
      if (owner === 'other') c.ownedBy = who
      else if (owner === 'unknown') c.otherTurn = who
    }
  }
}
