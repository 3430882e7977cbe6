/**
 * What to do with a retake that was cut off (Retake killed, the machine off): a pure decision from
 * the journal and what the opencode server says now. The rule: conversation and files end at the
 * same point — both before the turn (the retake went far enough: finish its destructive half) or
 * both as they were before the retake (it did not: undo the files) — and the user's payload stays
 * saved so "Send again" is one click. Nothing is prompted without the user.
 */
import type { RetakeRecord } from './retake-journal'

export interface ServerFacts {
  /** The session's revert marker names this message (the server's revert happened). */
  reverted: boolean
  /** Parts the message holds now; null when the server does not have the message. */
  parts: number | null
}

export type RecoveryDecision =
  /** The prompt reached the server: the retake is over, only its leftovers are cleared. */
  | { kind: 'delivered' }
  /** The conversation was reverted: finish it (remaining parts deleted), keep the files restored. */
  | { kind: 'forward'; deleteParts: boolean; note: string }
  /** The conversation was not touched: put the files back as they were before the retake. */
  | { kind: 'rollback'; undoFiles: boolean; note: string }

export function decideRecovery(rec: RetakeRecord, facts: ServerFacts): RecoveryDecision {
  if (rec.phase === 'prompting' && (facts.parts ?? 0) > 0 && !facts.reverted) return { kind: 'delivered' }
  const reverted = facts.reverted || rec.phase === 'reverted' || rec.phase === 'prompting'
  // A rewind that reverted went as far as it goes: the message's parts stay (opencode drops the
  // reverted turns at the next prompt) and its saved copy offers the text to edit or send.
  if (reverted && rec.rewind) {
    return {
      kind: 'forward',
      deleteParts: false,
      note: 'Retake stopped while going back to before this turn, after the conversation and the files were put back; the message was not sent — edit it or send it again.',
    }
  }
  if (reverted) {
    return {
      kind: 'forward',
      deleteParts: (facts.parts ?? 0) > 0,
      note: 'Retake stopped during this retake, after the conversation and the files were put back to before this turn; the message was not sent yet — send it again.',
    }
  }
  return {
    kind: 'rollback',
    undoFiles: rec.phase === 'restoring' || rec.phase === 'restored' || rec.phase === 'reverting' || rec.restoreId !== undefined,
    note: 'Retake stopped during this retake, before the conversation changed; the files were put back as they were — nothing is lost. Send it again or retake.',
  }
}
