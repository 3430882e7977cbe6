/**
 * The decisions of "continue from this attempt", as pure functions: what is kept, which files
 * move, which messages leave the server and which come back, and the events that bring them back.
 * continue-attempt.ts carries them out.
 */
import type { Attempt } from '../../shared/ipc-contract'

export type StoredMessage = { info: { id: string; role: string; providerID?: string; modelID?: string; time?: { created?: number } }; parts: { id: string }[] }

export interface SwitchPlan {
  /** The current branch, recorded as an attempt before anything changes (null: there is none). */
  leaving: Attempt | null
  /** Roll the current branch's files back (the plan from the restore sheet). */
  rollBack: boolean
  /** The restore to undo for the attempt's own files (null: none recorded, or files left). */
  bringBack: string | null
  /** Messages to delete on the server, newest first, down to the retaken question. */
  remove: string[]
  /** Messages to replay, oldest first: the question as the attempt asked it, then its branch. */
  replay: StoredMessage[]
}

export function planSwitch(a: {
  attempt: Attempt
  /** The session's messages from (at least) the retaken question to the newest. */
  messages: StoredMessage[]
  now: number
  hasFilePlan: boolean
  leaveFiles: boolean
}): SwitchPlan | { error: string } {
  const { attempt } = a
  const at = a.messages.findIndex((m) => m.info.id === attempt.messageID)
  const question = at >= 0 ? a.messages[at]! : undefined
  if (attempt.switching) {
    // A switch cut off while it rewrote the conversation: the branch was kept before anything
    // changed and the files are the attempt's already. Whatever is left of the branch goes (the
    // question, and every id after it: opencode's ids ascend in time) and the attempt is replayed.
    const user = (attempt.user ?? question) as StoredMessage | undefined
    if (!user) return { error: 'The retaken message is not in this session any more' }
    const leftOver = a.messages
      .filter((m) => m.info.id > attempt.messageID)
      .map((m) => m.info.id)
      .reverse()
    return {
      leaving: null,
      rollBack: false,
      bringBack: null,
      remove: [...(question ? [question.info.id] : []), ...leftOver],
      replay: timesInOrder([user, ...(attempt.messages as StoredMessage[])]),
    }
  }
  if (!question) return { error: 'The retaken message is not in this session any more' }
  const current = question
  const branch = a.messages.slice(at + 1)
  const lastModel = [...branch].reverse().find((m) => m.info.providerID && m.info.modelID)?.info
  return {
    leaving: {
      sessionID: attempt.sessionID,
      messageID: attempt.messageID,
      at: a.now,
      messages: branch,
      user: current,
      ...(lastModel ? { model: { providerID: lastModel.providerID!, modelID: lastModel.modelID! } } : {}),
    },
    rollBack: a.hasFilePlan && !a.leaveFiles,
    bringBack: attempt.restoreId && !a.leaveFiles ? attempt.restoreId : null,
    // Newest first, down to the question (a cut-off switch is finished through Attempt.switching).
    remove: [...branch]
      .reverse()
      .map((m) => m.info.id)
      .concat(current.info.id),
    // An attempt recorded before its question was kept falls back to the question as it is now.
    replay: timesInOrder([(attempt.user ?? current) as StoredMessage, ...(attempt.messages as StoredMessage[])]),
  }
}

/**
 * The messages with creation times that ascend in their order, the key opencode lists them by (then
 * the id). A time moves only when it is later than the next message's, to just before it: opencode's
 * after-turn summary writes the whole question back, and landing after a switch replayed an
 * attempt, it leaves that question holding the other branch's (later) time. The listing stays right
 * (a rewrite keeps the time the row was stored with), but the branch kept at the next switch records
 * that time, and replayed as it is, the question would list after its answers.
 */
export function timesInOrder(messages: StoredMessage[]): StoredMessage[] {
  const out = [...messages]
  for (let i = out.length - 2; i >= 0; i--) {
    const m = out[i]!
    const own = m.info.time?.created
    const next = out[i + 1]!.info.time?.created
    if (own !== undefined && next !== undefined && own > next) out[i] = { ...m, info: { ...m.info, time: { ...m.info.time, created: next - 1 } } }
  }
  return out
}

export interface SyncEvent {
  id: string
  aggregateID: string
  seq: number
  type: string
  data: Record<string, unknown>
}

/** opencode's sync events that put `messages` back, numbered after the session's event `afterSeq`. */
export function replayEvents(sessionID: string, messages: StoredMessage[], afterSeq: number, now: number): SyncEvent[] {
  let seq = afterSeq
  let n = 0
  // Unique per call and ordered: opencode only needs event ids to be new.
  const id = () => `evt_${now.toString(16)}rtk${String(n++).padStart(12, '0')}`
  const events: SyncEvent[] = []
  for (const m of messages) {
    events.push({ id: id(), aggregateID: sessionID, seq: ++seq, type: 'message.updated.1', data: { sessionID, info: m.info } })
    for (const part of m.parts) events.push({ id: id(), aggregateID: sessionID, seq: ++seq, type: 'message.part.updated.1', data: { sessionID, part, time: now } })
  }
  return events
}

/**
 * What a replay left out of place, seen in the session read back after it: the ids to delete
 * (newest first) before replaying again, or none when the switch's messages (those it removed or
 * replayed) are exactly the replayed ones, in order, each as replayed.
 *
 * opencode lists messages by the creation time stored with the row (then id), and a rewrite of a
 * message that exists keeps that time. After a turn opencode computes its summary on its own
 * (forked, not awaited) and writes the whole question back with it: landing after the switch
 * deleted the question, that write brings it back as it was (same id, its own time), and the
 * replay's rewrite of it keeps that time, so the attempt's question lists after its answers.
 * Deleted and replayed again, it is stored with the replayed time.
 */
export function misplacedAfterReplay(list: StoredMessage[], replay: StoredMessage[], removed: string[]): string[] {
  const ours = new Set([...removed, ...replay.map((m) => m.info.id)])
  const seen = list.filter((m) => ours.has(m.info.id))
  const inPlace = seen.length === replay.length && seen.every((m, i) => m.info.id === replay[i]!.info.id && m.info.time?.created === replay[i]!.info.time?.created)
  return inPlace ? [] : seen.map((m) => m.info.id).reverse()
}
