/**
 * Who changed a path: the rule that lets a retake undo only its own turn. A turn's capture→seal
 * difference holds everything that changed in its window — its tools' work, but also another
 * session's turn running at the same time, the user's editor, a build watcher. What a turn's tools
 * named (the files its edit/write/patch calls wrote) tells them apart; a tool that can write
 * anywhere (a shell, a sub-agent, an unknown tool) makes the turn "opaque": anything may be its.
 *
 * Unknown tool use (no record: a remote server Retake could not ask, an old turn) is treated as
 * opaque, which is the behaviour before attribution existed.
 */
import path from 'node:path'
import { realpathOf } from '../store/os-names'
import type { TurnToolUse } from '../types'

// Declared with the store's public types (the plan call takes them); re-exported for the host.
export type { ToolUseLookup, TurnToolUse } from '../types'

/**
 * Whether the turn's tools named `abs` (a folder counts when a named path lies inside it). A tool
 * may name a file through a linked folder (`lnk/a.txt`, `lnk` → `src`): the path the engine records
 * is `src/a.txt`, so each named path counts as written and as its real path too.
 */
export function named(use: TurnToolUse, abs: readonly string[], isDir: boolean): boolean {
  const paths = withRealPaths(use)
  for (const a of abs) {
    if (paths.has(a)) return true
    if (isDir) for (const p of paths) if (p.startsWith(a + '/')) return true
  }
  return false
}

const resolved = new WeakMap<TurnToolUse, Set<string>>()

/** The named paths and their real paths, once per tool-use record. */
function withRealPaths(use: TurnToolUse): Set<string> {
  let out = resolved.get(use)
  if (!out) {
    out = new Set(use.paths)
    for (const p of use.paths) {
      const real = realPathOfNamed(p)
      if (real) out.add(real)
    }
    resolved.set(use, out)
  }
  return out
}

/**
 * The real path of a path a tool named: of the path itself, or — when it no longer exists (the
 * turn deleted it, a retake took it away) — of its nearest existing folder, with the rest appended.
 * Judged now, not when the tool ran: a link re-pointed since is read as it points now.
 */
export function realPathOfNamed(p: string): string | null {
  if (!path.isAbsolute(p)) return null
  let rest = ''
  for (let at = path.normalize(p); ;) {
    try {
      return realpathOf(at) + rest
    } catch {
      const up = path.dirname(at)
      if (up === at) return null
      rest = `${path.sep}${path.basename(at)}${rest}`
      at = up
    }
  }
}

export type Owner = 'this' | 'other' | 'unknown'

/**
 * A path that changed while this turn and another session's turn both ran. It is this turn's only
 * when this turn's tools named it and the other's could not have written it; the other's when the
 * reverse holds; otherwise nobody can tell (kept unless the user rolls it back).
 */
export function ownerInOverlap(mine: TurnToolUse | undefined, theirs: TurnToolUse | undefined, abs: readonly string[], isDir: boolean): Owner {
  const mineNamed = mine !== undefined && named(mine, abs, isDir)
  const theirsNamed = theirs !== undefined && named(theirs, abs, isDir)
  const mineCould = mine === undefined || mine.opaque || mineNamed
  const theirsCould = theirs === undefined || theirs.opaque || theirsNamed
  if (mineNamed && !theirsCould) return 'this'
  if (theirsNamed && !mineCould) return 'other'
  return 'unknown'
}

/**
 * A path that changed in this turn's window with no other turn running: changed outside the
 * agent (the user's editor, a build watcher) when the turn's tools are known, none of them could
 * write anywhere, and none named it.
 */
export function changedOutsideAgent(mine: TurnToolUse | undefined, abs: readonly string[], isDir: boolean): boolean {
  return mine !== undefined && !mine.opaque && !named(mine, abs, isDir)
}
