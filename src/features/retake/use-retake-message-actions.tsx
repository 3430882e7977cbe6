/**
 * The retake layer's part of every message: ↺ (with Edit and Fork) among its actions, and below a
 * user turn its file changes, its attempts and a retake of it that did not go through.
 */
import { useCallback } from 'react'
import type { MessageWithParts } from '../../api/types'
import type { Attempt, SavedRetake, TurnCheckpoint } from '../../../shared/ipc-contract'
import type { ActionTarget } from '../../ui/MessageActions'
import { TurnChanges } from '../checkpoints'
import type { RetakeContextValue } from './retake-context'
import { AttemptSwitcher } from './AttemptSwitcher'
import { FailedRetakeNotice } from './FailedRetakeNotice'
import { RetakeAction } from './RetakeAction'
import { EditAction } from './EditAction'
import { ForkAction } from './ForkAction'

export function useRetakeMessageActions(
  ctx: RetakeContextValue | null,
  attempts: Attempt[] | undefined,
  failed: SavedRetake[],
  checkpoints: TurnCheckpoint[] | undefined,
  onContinue: (attempt: Attempt) => void,
) {
  const extra = useCallback(
    (message: MessageWithParts) =>
      ctx ? (
        <>
          {message.info.role === 'user' && <EditAction message={message} />}
          <RetakeAction message={message} />
          <ForkAction message={message} />
        </>
      ) : null,
    [ctx],
  )
  const below = useCallback(
    (message: MessageWithParts, target: ActionTarget) => {
      if (!ctx || target !== 'user') return null
      const list = attempts?.filter((a) => a.messageID === message.info.id) ?? []
      const notice = failed.find((r) => r.messageID === message.info.id)
      const turn = checkpoints?.find((t) => t.messageID === message.info.id)
      if (!list.length && !notice && !turn?.changes.length) return null
      return (
        <div className="message-below">
          {turn && <TurnChanges sessionID={ctx.sessionID} turn={turn} />}
          {list.length > 0 && <AttemptSwitcher key={list.map((a) => a.at).join()} attempts={list} current={message} locked={ctx.locked} onContinue={(a) => onContinue(a)} />}
          {notice && <FailedRetakeNotice saved={notice} />}
        </div>
      )
    },
    // onContinue is the layer's state setter: stable, so the rows change only with what they show.
    [ctx, attempts, failed, checkpoints, onContinue],
  )
  return { extra, below }
}
