// The oracle: what a user may expect after a restore (or an undo), as a pure function of the trees
// seen before the turn ("back": what the restore puts back), after it ("expected": what the engine
// recorded at the seal), on disk just before the apply ("before") and after it ("after").
//   - every path the turn changed is back byte-exact (content, mode, link text, kind);
//   - every other path is untouched (a second name of a file shows the mode and tags the apply set
//     back through another of its names: they belong to the file, see metadataOfOtherName);
//   - nothing the user wrote is gone: a path the user changed after the seal keeps the user's state
//     (or is reported as skipped, never silently); a file the user wrote during a turn whose tools
//     are known, none opaque, survives and is reported as a conflict (no tool named it); what
//     another process wrote while the apply ran is there as it wrote it;
//   - the documented limit (docs/checkpoints.md, "A retake undoes only its own turn", Limits): a
//     turn that ran a shell, or whose tool use is unknown, owns everything in its window, so a file
//     the user wrote during it is rolled back with the turn (and its undo brings it back); and a
//     file the turn's tools wrote that the user edited during the turn goes back with the turn;
//   - a path left alone is reported in `skipped`, and only because of a user change or an ignored
//     file next to it (a skip with no reason a user can see is a failure too).
import ignore from 'ignore'
import type { ApplyResult } from '../../../core/checkpoints/types'
import { changedPaths, engineName, keyName, nodeEq, related, showNode, showPath } from './tree'
import type { Node, Tree } from './tree'

/**
 * Is a path ignored by the root .gitignore of a tree (or inside an ignored folder)? 'depends' when
 * the answer changes with the path's kind (`cache/` ignores a folder, not a link of that name): such
 * a path is checkpointed in one state and not in the other, so the oracle asks nothing of it.
 */
export type Ignored = (rel: string) => boolean | 'depends'

/** Ignored in both trees (a .gitignore the turn rewrote counts before and after); 'depends' when they differ. */
export function ignoredIn(a: Tree, b: Tree): Ignored {
  const [x, y] = [ignoredBy(a), ignoredBy(b)]
  return (rel) => {
    const [u, v] = [x(rel), y(rel)]
    return u === v ? u : 'depends'
  }
}

export function ignoredBy(tree: Tree): Ignored {
  const gi = tree.get('.gitignore')
  const m = ignore().add(gi && gi.t === 'f' ? gi.data.toString('latin1') : '')
  const under = (rel: string, lastIsDir: boolean): boolean => {
    const parts = rel.split('/')
    for (let i = 1; i <= parts.length; i++) {
      const sub = parts.slice(0, i).join('/')
      if (m.ignores(i < parts.length || lastIsDir ? sub + '/' : sub)) return true
    }
    return false
  }
  return (rel) => {
    const asDir = under(rel, true)
    return asDir === under(rel, false) ? asDir : 'depends'
  }
}

export interface Judged {
  label: string
  back: Tree
  expected: Tree
  before: Tree
  after: Tree
  result: ApplyResult
  /** Paths ignored (never checkpointed): only asked to be left alone. */
  ignored: Ignored
  /** What the user wrote during the turn (path → node): must survive and be reported, unless `turnOwnsWindow`. */
  userWritesDuringTurn?: Map<string, Node>
  /** The turn ran a shell or its tool use is unknown: the user's writes during it are the turn's (documented limit). */
  turnOwnsWindow?: boolean
  /** A file the turn's tools wrote that the user edited during the turn: the turn's (documented limit). */
  userEditedTurnFile?: string
  /** What another process wrote while the apply ran (path → node): must survive as written. */
  userDuringApply?: Map<string, Node>
}

/**
 * A file's mode and tags belong to the file, not to one of its names: when the apply set them back
 * in place on another name of the same file (a hard link, model/names-links.ts), this name shows
 * them too, its content untouched. Only what the apply did to that other name is judged there.
 */
function metadataOfOtherName(j: Judged, p: string): boolean {
  const [b, a] = [j.before.get(p), j.after.get(p)]
  if (b?.t !== 'f' || a?.t !== 'f' || b.ino === undefined || b.ino !== a.ino || !b.data.equals(a.data)) return false
  for (const [q, qa] of j.after) {
    const qb = j.before.get(q)
    if (q === p || qa.t !== 'f' || qb?.t !== 'f' || qa.ino !== a.ino || qb.ino !== a.ino) continue
    if (!nodeEq(qb, qa) && qa.mode === a.mode && qa.tags === a.tags) return true
  }
  return false
}

export function judge(j: Judged): string[] {
  const v: string[] = []
  const say = (p: string, what: string): void => {
    v.push(
      `${j.label}: ${showPath(p)} ${what} [back ${showNode(j.back.get(p))}, turn ${showNode(j.expected.get(p))}, before ${showNode(j.before.get(p))}, after ${showNode(j.after.get(p))}]`,
    )
  }
  const turnChanged = changedPaths(j.back, j.expected)
  const userChanged = changedPaths(j.expected, j.before)
  const duringTurn = j.userWritesDuringTurn ?? new Map<string, Node>()
  // Writes the engine can tell from the turn's (no tool named them); the others are judged as the turn's.
  const userDuring = j.turnOwnsWindow ? new Map<string, Node>() : duringTurn
  const skipped = [...j.result.skipped.map((s) => s.path), ...j.result.failed.map((f) => f.path)]
  // Reported names are compared in NFC and as written (the engine may keep a name's own form).
  const names = (p: string): string[] => [engineName(p), keyName(p)]
  const reported = (p: string): boolean => skipped.some((s) => names(p).some((n) => related(s, n)))
  const reportedOutside = (p: string): boolean => j.result.skipped.some((s) => names(p).includes(s.path) && (s.reason ?? '').includes('changed outside the agent during this turn'))
  const all = new Set([...j.back.keys(), ...j.expected.keys(), ...j.before.keys(), ...j.after.keys()])
  const ignoredPaths = [...all].filter((p) => j.ignored(p) !== false)
  const duringApply = j.userDuringApply ?? new Map<string, Node>()
  const userish = [...userChanged, ...userDuring.keys(), ...duringApply.keys()]

  for (const f of j.result.failed) v.push(`${j.label}: apply failed on ${JSON.stringify(f.path)}: ${f.error}`)
  for (const s of j.result.skipped) {
    const why = [...userish, ...ignoredPaths].some((p) => names(p).some((n) => related(n, s.path)))
    if (!why) v.push(`${j.label}: ${JSON.stringify(s.path)} skipped (${s.reason}) with no user change or ignored file there`)
  }
  for (const p of all) {
    const before = j.before.get(p)
    const after = j.after.get(p)
    const untouched = nodeEq(before, after) || metadataOfOtherName(j, p)
    const ignored = j.ignored(p)
    if (duringApply.has(p)) {
      if (!nodeEq(after, duringApply.get(p))) say(p, 'was written by another process during the apply and is not as it wrote it')
      continue
    }
    if (ignored === 'depends') {
      // Checkpointed in one state only: left alone or put back are both fair, unless it was the user's
      // (a file the user deleted may get its pre-turn state back, as below: nothing they wrote is lost).
      const refilled = before === undefined && nodeEq(after, j.back.get(p))
      if (!untouched && !refilled && (userChanged.has(p) || !nodeEq(after, j.back.get(p)))) say(p, 'is ignored in one state only and the apply changed it')
      continue
    }
    if (ignored) {
      if (!untouched) say(p, 'is ignored (never checkpointed) but the apply changed it')
    } else if (userDuring.has(p) && !userChanged.has(p)) {
      // Known tools, none opaque, none named it: a conflict "changed outside the agent", kept.
      if (!nodeEq(after, userDuring.get(p))) say(p, 'was written by the user during the turn (no tool named it) and the apply changed it')
      else if (!reportedOutside(p)) say(p, 'was written by the user during the turn (no tool named it) and is not reported as changed outside the agent')
    } else if (duringTurn.has(p) && !userChanged.has(p)) {
      // The documented limit: an opaque or unknown turn owns its window, so the user's file goes
      // with the turn's changes (its undo brings it back) — asked explicitly, not left to chance.
      if (!nodeEq(after, j.back.get(p)) && !(untouched && reported(p)))
        say(p, 'was written by the user during an opaque or unknown turn, which owns its window (documented limit), and is not rolled back with it')
    } else if (p === j.userEditedTurnFile && !userChanged.has(p)) {
      // The other documented limit: the evidence is what the tools named, not when the file changed,
      // so the user's edit of a file the turn wrote is rolled back with the turn's.
      if (!nodeEq(after, j.back.get(p)) && !(untouched && reported(p)))
        say(p, "was written by the turn's tools and edited by the user during the turn (documented limit: the turn's) and is not back as before the turn")
    } else if (userChanged.has(p)) {
      // A path the user deleted may get its pre-turn state back: nothing the user wrote is lost.
      const refilled = before === undefined && nodeEq(after, j.back.get(p))
      if (!untouched && !refilled) say(p, 'was changed by the user after the turn and the apply changed it')
      else if (turnChanged.has(p) && !nodeEq(before, j.back.get(p)) && !reported(p) && before?.t !== 'd') say(p, 'is a conflict that was not reported')
    } else if (turnChanged.has(p) && !userDuring.has(p)) {
      if (!nodeEq(after, j.back.get(p)) && !(untouched && reported(p))) say(p, 'was changed by the turn and is not back as it was')
    } else if (!turnChanged.has(p) && !untouched) say(p, 'was not part of the turn and the apply changed it')
  }
  return v
}
