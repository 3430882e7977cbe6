/**
 * Sending the composer's text: a slash command runs instead; otherwise the parts are built before
 * anything is cleared, a new session is made if needed, and the prompt goes with an id chosen here.
 * Whatever fails, the text and the attachments come back to the composer (a failed send, or a
 * message the server never stored).
 */
import { useCallback, useState } from 'react'
import { ascendingId } from '../../../shared/ids'
import type { ModelRef } from '../../../shared/ipc-contract'
import { errorMessage } from '../../../shared/unwrap'
import { useCreateSession } from '../../api/mutations'
import { isCheckpointFailure, useSendCommand, useSendPrompt } from '../../api/prompt-mutations'
import type { MessageError, SessionStatus } from '../../api/types'
import { buildPromptParts, type PendingAttachment, useAttachmentsStore } from '../attachments'
import { choiceKey, useModelStore } from '../models'
import { draftKey, useDraftsStore } from './drafts-store'
import { describeError, sendFailedText } from '../../api/message-errors'
import type { PendingSend } from './pending-send'
import { usePendingSendStore } from './pending-send-store'
import { useSessionErrors } from '../sessions'
import { usePendingSendGuard } from './use-pending-send'
import type { OpencodeCommandTurn } from './use-composer-commands'
import { mentionParts } from './mentions'
import { useMentionsStore } from './mentions-store'

export function useSendTurn(o: {
  directory: string
  sessionID: string | undefined
  /** The ids of the session's messages (a pending send is settled when its id shows up). */
  messageIDs: string[]
  status: SessionStatus | undefined
  sessionError: MessageError | undefined
  busy: boolean
  draft: string
  attachments: PendingAttachment[]
  /** Retake's slash commands run and yield null; an opencode command is a turn of its own; else the text to send. */
  intercept(text: string): string | OpencodeCommandTurn | null
  model: ModelRef | undefined
  agent: string | undefined
  onSelect(id: string): void
}) {
  const { directory, sessionID } = o
  const [sendError, setSendError] = useState<string | null>(null)
  const [checkpointFailed, setCheckpointFailed] = useState(false)
  const create = useCreateSession()
  const send = useSendPrompt()
  const sendCommand = useSendCommand()

  const giveBack = (sid: string | undefined, text: string, files: PendingAttachment[]) => giveBackTo(directory, sid, text, files)
  useLostMessageBack(directory, o, setSendError)

  async function onSend(opts: { skipCheckpoint?: boolean } = {}) {
    // A slash command runs here and is never sent; `//…` sends the text with one slash.
    const intercepted = o.intercept(o.draft)
    if (intercepted === null) return
    const command = typeof intercepted === 'string' ? null : intercepted
    const text = command ? o.draft.trim() : (intercepted as string)
    if (command && o.attachments.length > 0) {
      setSendError(`Attachments cannot go with /${command.command}: send them in a message of their own, or remove them first.`)
      return
    }
    let sid = sessionID
    let parts
    try {
      // Built before anything is cleared: a file over the inline limit is reported, nothing is lost.
      parts = command
        ? undefined
        : [...buildPromptParts(text, o.attachments), ...mentionParts(text, useMentionsStore.getState().byDraft[draftKey(directory, sessionID)] ?? [], directory)]
    } catch (err) {
      setSendError(errorMessage(err))
      return
    }
    const dkey = draftKey(directory, sessionID)
    const sent = useAttachmentsStore.getState().take(dkey)
    const mentioned = command ? [] : useMentionsStore.getState().take(dkey)
    useDraftsStore.getState().setDraft(dkey, '')
    setSendError(null)
    setCheckpointFailed(false)
    const messageID = ascendingId('msg')
    try {
      if (!sid) {
        const created = await create.mutateAsync()
        sid = created.id
        useModelStore.getState().carryOver(choiceKey(directory, undefined), choiceKey(directory, sid))
        o.onSelect(sid)
      }
      useSessionErrors.getState().clear(sid)
      usePendingSendStore.getState().set({ sessionID: sid, messageID, text, attachments: sent, sentAt: Date.now(), queued: o.busy })
      if (command) return runCommand(sid, messageID, command, text, sent, opts.skipCheckpoint)
      await send.mutateAsync({ sessionID: sid, messageID, skipCheckpoint: opts.skipCheckpoint, text, parts, model: o.model, agent: o.agent })
    } catch (err) {
      if (sid) usePendingSendStore.getState().clear(sid, messageID)
      setCheckpointFailed(isCheckpointFailure(err))
      // The draft survives a failed send, ahead of anything the user typed meanwhile; the
      // attachments come back too, to the composer the user now sees.
      giveBack(sid, text, sent)
      if (mentioned.length) useMentionsStore.getState().restore(draftKey(directory, sid), mentioned)
      setSendError(sendFailedText(err))
    }
  }
  /**
   * An opencode command's request lasts as long as its turn (the server answers at the end), so it is
   * not waited for here. A failure gives the command back only while its message is not on the
   * server; once it is, the turn's own outcome (an error, a stop) shows in the timeline as for a prompt.
   */
  function runCommand(sid: string, messageID: string, command: OpencodeCommandTurn, text: string, sent: PendingAttachment[], skipCheckpoint?: boolean) {
    sendCommand.mutateAsync({ sessionID: sid, messageID, skipCheckpoint, command: command.command, arguments: command.arguments, model: o.model, agent: o.agent }).catch((err) => {
      if (usePendingSendStore.getState().pending[sid]?.messageID !== messageID) return
      usePendingSendStore.getState().clear(sid, messageID)
      setCheckpointFailed(isCheckpointFailure(err))
      giveBack(sid, text, sent)
      setSendError(sendFailedText(err))
    })
  }

  return { onSend, sendError, checkpointFailed }
}

/** Text and attachments back to the composer of that session (ahead of anything typed meanwhile). */
function giveBackTo(directory: string, sessionID: string | undefined, text: string, files: PendingAttachment[]): void {
  const key = draftKey(directory, sessionID)
  useDraftsStore.getState().giveBack(key, text)
  if (files.length) useAttachmentsStore.getState().restore(key, files)
}

/** A message the server never stored (the turn failed before writing it) comes back to the composer. */
function useLostMessageBack(
  directory: string,
  o: { sessionID: string | undefined; messageIDs: string[]; status: SessionStatus | undefined; sessionError: MessageError | undefined },
  setSendError: (e: string) => void,
): void {
  const onLost = useCallback(
    (p: PendingSend<PendingAttachment>, error: MessageError | undefined) => {
      giveBackTo(directory, p.sessionID, p.text, p.attachments)
      setSendError(`Your message did not reach the conversation${error ? ` (${describeError(error).message})` : ''}. It is back in the composer.`)
    },
    [directory, setSendError],
  )
  usePendingSendGuard({ sessionID: o.sessionID, messageIDs: o.messageIDs, status: o.status, sessionError: o.sessionError, onLost })
}
