/**
 * "Continue from this attempt": an attempt kept by a retake becomes the session's current branch
 * again — the conversation on the opencode server and the files on disk — and the branch it
 * replaces is kept as an attempt in its turn, so switching back and forth loses nothing.
 *
 * Conversation: opencode has no call to put back messages it deleted, but it is event-sourced and
 * replays a session's events (`POST /sync/replay`, what it uses to move sessions between
 * machines). The current branch's messages are deleted from the retaken question on, then the
 * stored attempt's messages are replayed as `message.updated` / `message.part.updated` events with
 * their own ids and contents: the model sees exactly that history on the next prompt.
 * Files: the current branch's turns are rolled back through the plan the user saw (the restore
 * sheet, conflicts offered), then the restore that replaced the attempt is undone (its before-image
 * is the attempt's files, guarded by content like every undo), and the attempt's own turn record
 * comes back (attempt-turns.ts) so a later retake rolls back what that attempt did.
 */
import type { OpencodeClient } from '@opencode-ai/sdk/v2/client'
import type { z } from 'zod'
import type { ApplyResultSchema, AttemptContinueOutcome } from '../../shared/ipc-contract'
import { unwrap } from '../../shared/unwrap'
import type { CheckpointService } from '../checkpoint-service'
import type { AppStores } from '../store/app-stores'
import { messagesBackTo } from './session-pages'
import { misplacedAfterReplay, planSwitch, replayEvents, type StoredMessage } from './attempt-switch'

export interface ContinueInput {
  directory: string
  sessionID: string
  messageID: string
  /** The attempt's `at` (its id within the turn). */
  at: number
  /** The plan that rolls back the current branch's files (checkpoints.plan backTo the turn). */
  files?: { planId: string; overwrite?: string[]; keep?: string[] }
  /** The conversation only: no file is touched (the user's choice in the sheet). */
  leaveFiles?: boolean
}

type ApplyResult = z.infer<typeof ApplyResultSchema>

interface Deps {
  client: OpencodeClient
  /** The host's own POST to opencode (a host-only route: the window cannot call it). */
  post(path: string, body: unknown): Promise<{ status: number; json: unknown }>
  checkpoints: CheckpointService
  stores: AppStores
  now(): number
  /** Tests: called (and awaited) after each conversation delete (a throw stands for a crash at that point). */
  afterDelete?(messageID: string): void | Promise<void>
}

export async function continueFromAttempt(d: Deps, input: ContinueInput): Promise<AttemptContinueOutcome> {
  const { directory, sessionID, messageID } = input
  const attempt = d.stores.attempts(sessionID).find((a) => a.messageID === messageID && a.at === input.at)
  if (!attempt) return { status: 'failed', error: 'That attempt is no longer kept' }
  const status = unwrap('session.status', await d.client.session.status({})) as Record<string, { type: string }>
  if (status[sessionID] && status[sessionID]!.type !== 'idle') return { status: 'failed', error: 'A turn is running in this session: stop it or wait for it to end first' }

  const list = (await messagesBackTo(d.client, sessionID, messageID)) as StoredMessage[]
  const plan = planSwitch({ attempt, messages: list, now: d.now(), hasFilePlan: !!input.files, leaveFiles: !!input.leaveFiles })
  if ('error' in plan) return { status: 'failed', error: plan.error }
  const keptAt = plan.leaving?.at ?? null

  // 1. The branch being left is kept first: whatever fails later, nothing of it is lost.
  if (plan.leaving) d.stores.addAttempt(plan.leaving)

  // 2. Files: roll the current branch back, then bring the attempt's back.
  let rollback: ApplyResult | null = null
  if (plan.rollBack && input.files) {
    rollback = await d.checkpoints.apply(directory, input.files.planId, { onConflict: 'restore-rest', overwrite: input.files.overwrite ?? [], keep: input.files.keep ?? [] })
    if (rollback.status === 'cancelled' || rollback.failed.length > 0) {
      if (rollback.restoreId) await d.checkpoints.undo(directory, rollback.restoreId).catch(() => {})
      if (keptAt !== null) d.stores.forgetAttempt(sessionID, messageID, keptAt)
      return { status: 'failed', error: `The current files could not all be rolled back: ${rollback.failed.map((f: { path: string }) => f.path).join(', ') || rollback.status}` }
    }
    if (rollback.restoreId && keptAt !== null) d.stores.setAttemptRestore(sessionID, messageID, keptAt, rollback.restoreId)
  }
  let filesBack: ApplyResult | null = null
  if (plan.bringBack) {
    await d.checkpoints.bringBackAttemptTurn(directory, { sessionID, messageID }, plan.bringBack)
    filesBack = await d.checkpoints.undo(directory, plan.bringBack)
  }

  // 3. Conversation: the current branch out, the attempt's in. Marked first: a switch cut off from
  // here on is finished by continuing again, without touching a file twice.
  d.stores.markSwitching(sessionID, messageID, attempt.at)
  for (const id of plan.remove) {
    unwrap('session.deleteMessage', await d.client.session.deleteMessage({ sessionID, messageID: id }))
    await d.afterDelete?.(id)
  }
  await replayMessages(d, directory, sessionID, plan.replay)
  // Read back: a late write of opencode's own to a message just deleted (the summary it computes
  // after a turn) can put the question back with its old time, after its answers
  // (misplacedAfterReplay). What is out of place is deleted and the attempt replayed again.
  for (let round = 0; ; round++) {
    const back = (await messagesBackTo(d.client, sessionID, messageID)) as StoredMessage[]
    const misplaced = misplacedAfterReplay(back, plan.replay, plan.remove)
    if (misplaced.length === 0) break
    if (round >= 2) throw new Error('opencode kept rewriting the attempt’s messages while they were put back: continue from the attempt again')
    for (const id of misplaced) unwrap('session.deleteMessage', await d.client.session.deleteMessage({ sessionID, messageID: id }))
    await replayMessages(d, directory, sessionID, plan.replay)
  }

  // 4. The attempt is current now: it leaves the history (the branch left behind took its place).
  d.stores.forgetAttempt(sessionID, messageID, attempt.at)
  return { status: 'done', kept: keptAt, rollback, filesBack }
}

/** Appends message events after the session's last event (replay refuses a gap in the sequence). */
export async function replayMessages(d: Pick<Deps, 'post' | 'now'>, directory: string, sessionID: string, messages: StoredMessage[]): Promise<void> {
  for (let tries = 0; ; tries++) {
    const r = await d.post('/sync/replay', { directory, events: replayEvents(sessionID, messages, await lastSeq(d, sessionID), d.now()) })
    if (r.status === 200) return
    // Another event (a title, a status) landed between the read and the replay: read again.
    if (tries >= 2) throw new Error(`opencode refused to replay the messages (HTTP ${r.status}); they are kept in Retake: try again`)
  }
}

/** The session's newest event number (`/sync/history` answers the events after a given one). */
async function lastSeq(d: Pick<Deps, 'post'>, sessionID: string): Promise<number> {
  // Events after number 0 (the session's creation, always there; the server refuses negatives).
  const r = await d.post('/sync/history', { [sessionID]: 0 })
  if (r.status !== 200 || !Array.isArray(r.json)) throw new Error(`opencode did not list the session's events (HTTP ${r.status})`)
  return (r.json as { aggregate_id: string; seq: number }[]).filter((e) => e.aggregate_id === sessionID).reduce((max, e) => Math.max(max, e.seq), 0)
}
