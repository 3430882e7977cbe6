// Running a restore's steps, committing it (the post-capture, the restore record, the turns marked,
// the journal committed last), and finishing at open the restores a crash interrupted.
import fs from 'node:fs'
import type { Engine } from '../capture/engine'
import { currentEntry, matches } from '../capture/current'
import { recordRoot, type FolderIds } from './folder-chain'
import { intentTouched, Journal, pendingJournals, readJournal } from '../store/journal'
import type { Intent, Step } from '../store/journal'
import { keyToAbs } from '../store/paths'
import type { RestoreRecord } from '../store/records'
import { cleanTemps, flushFolders, runStep } from './steps'
import { KeptInPlace } from './step-env'
import type { StepEnv } from './step-env'
import { changedSinceDone, CHANGED_WHILE_DOWN, wroteRecord } from './recovery-check'
import { markTurns, markUndone } from '../plan/turn-status'
import type { ApplyResult, Entry } from '../types'

/** Test and benchmark hooks of a restore. */
export interface ApplyHooks {
  /**
   * Called before step i runs (crash tests kill the process here). A promise it returns is waited
   * for: race tests hold a step until another process has acted.
   */
  onStep?: (i: number, step: Step) => void | Promise<void>
  beforeRename?: (tmp: string, target: string) => void
  /** Receives the bytes written to the workspace (benchmark). */
  onBytesWritten?: (n: number) => void
}

/**
 * `guards` and `folders`: what apply's re-check found at each path and above it (step-env.ts);
 * recovery has neither (its steps are judged by safeToRedo, and by the roots as they are now).
 */
export function stepEnv(e: Engine, restoreId: string, hooks: ApplyHooks, guards = new Map<string, Entry | null>(), folders: FolderIds = new Map()): StepEnv {
  for (const r of e.roots) if (!folders.has(r.abs)) recordRoot(folders, r.abs, r.real)
  const tag = `r${restoreId.replace(/[^a-z0-9]/g, '')}`
  return {
    roots: e.rootById,
    blobs: e.blobs,
    tag,
    bytesWritten: { n: 0 },
    hooks,
    dirty: new Set(),
    folders,
    guards,
    cleared: new Set(),
    maxFileBytes: e.maxFileBytes,
    vanished: new Set(),
  }
}

export interface StepRun {
  failed: ApplyResult['failed']
  kept: ApplyResult['skipped']
  failedKeys: Set<string>
  /**
   * `root:key` of paths every step of which left them as they were (kept as the user left them, or
   * gone already): not part of what this restore touched, so its undo never writes them.
   */
  untouched: Set<string>
}

export async function runSteps(e: Engine, env: StepEnv, journal: Journal, intent: Intent, done: Set<number>, hooks: ApplyHooks, recovering = false): Promise<StepRun> {
  const out: StepRun = { failed: [], kept: [], failedKeys: new Set(), untouched: new Set() }
  const changed = new Set<string>()
  const preState = recovering ? e.snaps.state(intent.pre) : null
  // Paths some step writes, makes or changes: an unlink of any other path (a plain delete) is the
  // only step at its path, so redoing it after a crash finds the path gone and does nothing; its
  // `done` mark may wait for the next batch (Journal.done).
  const rewritten = new Set(intent.steps.filter((s) => s.op !== 'unlink').map((s) => `${s.root}:${s.key}`))
  const missed = (i: number, s: Step, k: string, err: unknown): void => {
    const where = whereOf(e, s.root, s.key)
    if (err instanceof KeptInPlace) {
      out.kept.push({ ...where, reason: err.message })
      out.untouched.add(k)
      journal.kept(i, err.message)
      return
    }
    const msg = (err as NodeJS.ErrnoException).code ? `${(err as NodeJS.ErrnoException).code}: ${(err as Error).message}` : (err as Error).message
    out.failed.push({ ...where, error: msg })
    out.failedKeys.add(k)
    journal.failed(i, msg)
  }
  for (let i = 0; i < intent.steps.length; i++) {
    if (done.has(i)) continue
    const s = intent.steps[i]!
    const k = `${s.root}:${s.key}`
    const plainDelete = s.op === 'unlink' && !rewritten.has(k)
    const held = hooks.onStep?.(i, s)
    if (held) await held
    try {
      // Not redone over a path changed since (the user's edit while the app was down): kept, so the
      // restore did not touch it and its undo never writes there.
      if (recovering && !safeToRedo(e, s, preState?.get(s.root)?.get(s.key))) throw new KeptInPlace(CHANGED_WHILE_DOWN)
      // Only a write returns a promise: an install's thousands of deletes wait on no microtask.
      const writing = runStep(env, s, k)
      if (writing) await writing
      journal.done(i, plainDelete)
      // A plain delete is the only step at its path: no other step can have kept it untouched.
      if (!plainDelete && !env.vanished.has(k)) changed.add(k)
    } catch (err) {
      missed(i, s, k, err)
    }
  }
  for (const k of env.vanished) out.untouched.add(k)
  for (const k of changed) out.untouched.delete(k)
  // Every change durable before the caller commits (restore record, turns marked, journal gone).
  flushFolders(env)
  return out
}

/** Where a step's path is, as a restore reports it: its root's folder (its id if the root is gone) and its key. */
function whereOf(e: Engine, rid: string, key: string): { root: string; path: string } {
  return { root: e.rootById.get(rid)?.abs ?? rid, path: key }
}

/** During recovery a step is redone only if the path still holds the pre-restore or target state. */
function safeToRedo(e: Engine, s: Step, pre: Entry | undefined): boolean {
  const root = e.rootById.get(s.root)
  if (!root) return false
  const abs = keyToAbs(root.abs, s.key)
  const cur = currentEntry(abs, root.caseInsensitive, e.blobs, e.maxFileBytes)
  if (!cur || matches(cur, pre)) return true
  if (s.op === 'write') return matches(cur, s.entry)
  if (s.op === 'symlink') return cur.type === 'symlink' && cur.link === s.link
  return s.op === 'mkdir' || s.op === 'chmod' || s.op === 'rmdir'
}

/** After the steps: capture the result, record the restore, mark turns, then commit the journal. */
export async function commitRestore(e: Engine, journal: Journal, intent: Intent, complete: boolean, untouched: Set<string>, wrote?: Map<string, Entry | null>): Promise<boolean> {
  const touched = intentTouched(intent)
  if (untouched.size) for (const [rid, keys] of touched) for (const k of keys) if (untouched.has(`${rid}:${k}`)) keys.delete(k)
  // The pre-restore state is the undo's target only: rebuilt from the snapshots if undone.
  const post = await e.captureKeys(touched, true)
  const rec: RestoreRecord = {
    format: 'retake-checkpoint-restore',
    version: 1,
    restoreId: intent.restoreId,
    kind: intent.kind,
    turns: intent.turns,
    pre: intent.pre,
    post,
    touched: Object.fromEntries([...touched].map(([rid, keys]) => [rid, [...keys]])),
    status: complete ? 'done' : 'partial',
    createdAt: Date.now(),
    undoOf: intent.undoOf,
    ...(wrote?.size ? { wrote: wroteRecord(wrote) } : {}),
  }
  e.records.saveRestore(rec)
  if (complete) {
    if (intent.kind === 'undo' && intent.undoOf) {
      markUndone(e, intent.undoOf)
    } else markTurns(e, intent.turns, 'restored', intent.restoreId)
  }
  journal.commit()
  return complete
}

/** A restore completed at open: what it left as it was (before or after the crash) and what failed. */
export interface RecoveredRestore {
  restoreId: string
  skipped: ApplyResult['skipped']
  failed: ApplyResult['failed']
}

/** On open: finish every restore a crash interrupted (forward: the intent was durable). */
export async function recover(e: Engine, details: RecoveredRestore[] = []): Promise<string[]> {
  const messages: string[] = []
  for (const file of pendingJournals(e.storeDir)) {
    const st = readJournal(file)
    if (!st || st.committed) {
      // No durable intent: nothing was touched. Committed: only the removal was lost.
      fs.rmSync(file, { force: true })
      continue
    }
    await e.exclusive('recovery', async () => {
      const journal = Journal.resume(file)
      const env = stepEnv(e, st.intent.restoreId, {})
      cleanTemps(env, st.intent.steps)
      const r = await runSteps(e, env, journal, st.intent, st.done, {}, true)
      // Paths kept before the crash (their steps are not redone), unless another of their steps ran.
      const keyOf = (i: number) => `${st.intent.steps[i]!.root}:${st.intent.steps[i]!.key}`
      const ranBefore = new Set([...st.done].filter((i) => !st.kept.has(i)).map(keyOf))
      for (const i of st.kept.keys()) if (!ranBefore.has(keyOf(i))) r.untouched.add(keyOf(i))
      // Steps done before the crash, looked at again: what the user changed since is theirs.
      const wrote = changedSinceDone(e, st.intent, st.done, new Set([...r.untouched, ...r.failedKeys, ...[...st.kept.keys()].map(keyOf)]))
      for (const k of wrote.keys()) r.kept.push({ ...whereOf(e, k.slice(0, k.indexOf(':')), k.slice(k.indexOf(':') + 1)), reason: CHANGED_WHILE_DOWN })
      await commitRestore(e, journal, st.intent, r.failed.length === 0, r.untouched, wrote)
      // Paths kept as the user left them before the crash are reported as the apply would have.
      const keptBefore = [...st.kept].map(([i, reason]) => ({ ...whereOf(e, st.intent.steps[i]!.root, st.intent.steps[i]!.key), reason }))
      const skipped = [...keptBefore, ...r.kept]
      details.push({ restoreId: st.intent.restoreId, skipped, failed: r.failed })
      const kept = skipped.length ? `, ${skipped.length} kept as they are: ${skipped.map((k) => JSON.stringify(k.path)).join(', ')}` : ''
      messages.push(
        `completed interrupted restore ${st.intent.restoreId} (${st.intent.steps.length - st.done.size} step(s) redone${r.failed.length ? `, ${r.failed.length} failed` : ''}${kept})`,
      )
    })
  }
  return messages
}
