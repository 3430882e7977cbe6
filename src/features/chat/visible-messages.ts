/**
 * What the timeline shows while a session is reverted. opencode keeps reverted messages until the
 * next prompt, so the client hides them: everything from `revert.messageID` onward in LIST order
 * (client-supplied ids need not sort), and with `revert.partID` the parts from it onward too.
 */
import type { MessageWithParts, Session } from '../../api/types'

export function visibleMessages(list: MessageWithParts[], revert: Session['revert'] | undefined): MessageWithParts[] {
  if (!revert) return list
  const i = list.findIndex((m) => m.info.id === revert.messageID)
  if (i === -1) return list
  if (!revert.partID) return list.slice(0, i)
  const target = list[i]!
  const j = target.parts.findIndex((p) => p.id === revert.partID)
  const kept = j === -1 ? target : { info: target.info, parts: target.parts.slice(0, j) }
  return [...list.slice(0, i), kept]
}
