/**
 * A sent message is only safe once the server has stored it. promptAsync answers 204 before the turn
 * runs, and a turn can fail before the user message is written (an image the server cannot decode,
 * a model that does not exist): then the text and files must come back to the composer. The message
 * carries an id Retake chose, so "stored" is checked by id, not by guessing from content.
 */
export interface PendingSend<A> {
  sessionID: string
  messageID: string
  text: string
  attachments: A[]
  sentAt: number
  /** Sent while a turn was running: opencode queues it, so an idle moment proves nothing. */
  queued?: boolean
}

export type PendingOutcome = 'confirmed' | 'lost' | 'waiting'

export function pendingOutcome(
  pending: Pick<PendingSend<unknown>, 'messageID' | 'sentAt'>,
  messageIDs: readonly string[],
  sessionError: { at: number } | undefined,
  idleSinceSend: boolean,
): PendingOutcome {
  if (messageIDs.includes(pending.messageID)) return 'confirmed'
  // An error for this session after the send, or the session idle again, without the message:
  // the server never stored it.
  if ((sessionError && sessionError.at >= pending.sentAt) || idleSinceSend) return 'lost'
  return 'waiting'
}
