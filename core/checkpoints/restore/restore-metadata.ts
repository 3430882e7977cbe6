// What a restore must say or set around a file's content. Folders it makes on its way to a file
// that no step makes (the user removed the folder since the turn) come back with the mode the
// target recorded, not the umask's (a 0700 folder came back 0755, open to every local user). A
// file over the size cap that it would replace or delete is named in the plan's warnings: its
// content is never kept, so Undo cannot bring it back.
import type { Engine } from '../capture/engine'
import { sizeLabel } from '../plan/planner'
import type { Step } from '../store/journal'
import { Records } from '../store/records'
import type { State } from '../store/snapshot-deltas'
import type { Plan } from '../types'
import { withXattrStep } from '../store/xattrs'

/**
 * The two states a plan goes between. `target`, what it puts back: the first turn's pre-image, or
 * an undo's pre-restore state. `recorded`, what it rolls back from: the last turn's seal, or the
 * undone restore's post (its folders' inodes tell a mount made since: mount-points.ts).
 */
export function planState(e: Engine, plan: Plan, which: 'target' | 'recorded'): State | null {
  const pre = which === 'target'
  if (plan.target.kind === 'undo') {
    const r = plan.target.restoreId ? e.records.restores.get(plan.target.restoreId) : undefined
    return r ? e.snaps.state(pre ? r.pre : r.post) : null
  }
  const key = pre ? plan.turns[0] : plan.turns.at(-1)
  const t = key ? e.records.turns.get(Records.key(key)) : undefined
  const id = pre ? t?.pre : t?.post
  return id ? e.snaps.state(id) : null
}

/**
 * `steps` with a `mkdir` for each missing folder (`rid` → keys, shallowest first) the target
 * recorded as a folder, placed before the first write, and a `chmod` last for those not writable by
 * their owner (after their files are in, as buildSteps does). A folder the target does not know is
 * left to the write's own `mkdir -p`.
 */
export function withParentFolders(steps: Step[], missing: [string, string][], target: State | null): Step[] {
  if (!missing.length || !target) return steps
  const mkdirs: Step[] = []
  const modes: Step[] = []
  for (const [root, key] of missing) {
    const entry = target.get(root)?.get(key)
    if (entry?.type !== 'dir') continue
    mkdirs.push(withXattrStep({ op: 'mkdir', root, key, mode: entry.mode }, undefined, entry))
    if ((entry.mode & 0o700) !== 0o700) modes.unshift({ op: 'chmod', root, key, mode: entry.mode })
  }
  if (!mkdirs.length) return steps
  mkdirs.sort((a, b) => a.key.split('/').length - b.key.split('/').length)
  let at = steps.findIndex((s) => s.op === 'write' || s.op === 'symlink' || s.op === 'chmod')
  if (at === -1) at = steps.length
  return [...steps.slice(0, at), ...mkdirs, ...steps.slice(at), ...modes]
}

const DESTRUCTIVE = new Set(['restore', 'delete', 'conflict'])

/** One warning per path whose current content is over the cap and would be replaced or deleted. */
export function oversizeWarnings(plan: Plan, maxFileBytes: number): string[] {
  const hit = plan.actions.filter((a) => DESTRUCTIVE.has(a.kind) && a.actual?.type === 'oversize' && a.actual.size > maxFileBytes)
  return hit.map((a) => `${a.path} is over the ${sizeLabel(maxFileBytes)} limit now: its current content is not kept, so Undo cannot bring it back`)
}
