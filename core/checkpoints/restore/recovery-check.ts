// Recovery's second look at the steps a crashed restore had finished. While the app is down the
// user may edit a file the restore already wrote (or make one it deleted). Recovery must neither
// take that edit as the restore's result (its undo would then overwrite it without a word) nor
// redo the step over it: the path is reported as kept, and the restore record holds what the
// restore wrote there (`RestoreRecord.wrote`), so an undo finds the edit a conflict.
import { currentEntry } from '../capture/current'
import type { Engine } from '../capture/engine'
import type { Intent, Step } from '../store/journal'
import { keyToAbs } from '../store/paths'
import type { RestoreRecord } from '../store/records'
import type { State } from '../store/snapshot-deltas'
import type { Entry } from '../types'

/** What a path holds once all of its steps ran: an entry to compare with, or null (gone). */
export type Outcome = { type: 'file'; entry: Entry } | { type: 'symlink'; link: string } | { type: 'dir' } | { type: 'mode'; mode: number } | null

/**
 * The outcome of each path whose every step is in `done` (by `root:key`, in step order: a type
 * swap unlinks, then writes). A path with a step still to run is left out: recovery redoes that
 * step under its own check.
 */
export function doneOutcomes(intent: Intent, done: Set<number>): Map<string, { step: Step; outcome: Outcome }> {
  const out = new Map<string, { step: Step; outcome: Outcome }>()
  const pending = new Set<string>()
  intent.steps.forEach((s, i) => {
    const k = `${s.root}:${s.key}`
    if (!done.has(i)) pending.add(k)
    const prev = out.get(k)?.outcome
    const outcome: Outcome =
      s.op === 'unlink' || s.op === 'rmdir'
        ? null
        : s.op === 'write'
          ? { type: 'file', entry: s.entry }
          : s.op === 'symlink'
            ? { type: 'symlink', link: s.link }
            : s.op === 'mkdir'
              ? { type: 'dir' }
              : prev === undefined
                ? { type: 'mode', mode: s.mode } // a mode alone: its content is the pre-restore one
                : prev // a folder made, then given its mode
    out.set(k, { step: s, outcome })
  })
  for (const k of pending) out.delete(k)
  return out
}

/** A mode-only outcome as a whole entry: the pre-restore one with that mode. */
export function withPre(o: Outcome, pre: Entry | undefined): Outcome {
  if (o?.type !== 'mode') return o
  return pre?.type === 'file' ? { type: 'file', entry: { ...pre, mode: o.mode } } : { type: 'dir' }
}

/** Does the disk entry still show the outcome? Folders by type only (their mode is the user's). */
export function holdsOutcome(cur: Entry | undefined, o: Outcome): boolean {
  if (!o) return !cur
  if (!cur || cur.type !== o.type) return false
  if (o.type === 'symlink') return cur.link === o.link
  if (o.type === 'file') return cur.hash === o.entry.hash && cur.mode === o.entry.mode
  return o.type === 'dir'
}

/** The entry a record keeps for an outcome (what the undo expects to find). */
export function outcomeEntry(o: Outcome, mode = 0o755): Entry | null {
  if (!o) return null
  // Never a proof of content by stat (stat-proof.ts): the file on disk is another inode by now.
  if (o.type === 'file') return { ...o.entry, ctimeMs: undefined }
  if (o.type === 'symlink') return { type: 'symlink', mode: 0o777, size: 0, mtimeMs: 0, ino: 0, link: o.link }
  if (o.type === 'mode') return null // resolved by withPre before
  return { type: 'dir', mode, size: 0, mtimeMs: 0, ino: 0 }
}

/**
 * Paths a finished step wrote that the disk no longer shows (`root:key` → what the step left).
 * `skip`: paths recovery kept or failed on this time (already reported).
 */
export function changedSinceDone(e: Engine, intent: Intent, done: Set<number>, skip: Set<string>): Map<string, Entry | null> {
  const out = new Map<string, Entry | null>()
  const pre = e.snaps.state(intent.pre)
  for (const [k, { step, outcome: o }] of doneOutcomes(intent, done)) {
    if (skip.has(k)) continue
    const root = e.rootById.get(step.root)
    if (!root) continue
    const outcome = withPre(o, pre?.get(step.root)?.get(step.key))
    const cur = currentEntry(keyToAbs(root.abs, step.key), root.caseInsensitive, e.blobs, e.maxFileBytes)
    if (!holdsOutcome(cur, outcome)) out.set(k, outcomeEntry(outcome, step.op === 'mkdir' || step.op === 'chmod' ? step.mode : undefined))
  }
  return out
}

export const CHANGED_WHILE_DOWN = 'changed while the restore was interrupted (the app was not running); kept as it is'

/** `root:key` → entry, as the restore record stores it (root id → key → entry, null: absent). */
export function wroteRecord(wrote: Map<string, Entry | null>): Record<string, Record<string, Entry | null>> {
  const out: Record<string, Record<string, Entry | null>> = {}
  for (const [k, entry] of wrote) {
    const i = k.indexOf(':')
    ;(out[k.slice(0, i)] ??= {})[k.slice(i + 1)] = entry
  }
  return out
}

/** The post state as an undo expects it: what a recovered restore wrote where the user edited since. */
export function withWrote(post: State, wrote: RestoreRecord['wrote']): State {
  if (!wrote) return post
  const out: State = new Map(post)
  for (const [rid, byKey] of Object.entries(wrote)) {
    const rs = new Map(post.get(rid) ?? [])
    for (const [key, entry] of Object.entries(byKey)) {
      if (entry) rs.set(key, entry)
      else rs.delete(key)
    }
    out.set(rid, rs)
  }
  return out
}
