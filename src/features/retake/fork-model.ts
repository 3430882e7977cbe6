/**
 * The model a fork goes on with: the one its session was using. opencode's fork copies the messages
 * but not the session's model, so without this the fork would fall back to the server's default.
 */
import type { ModelRef } from '../../../shared/ipc-contract'
import type { MessageWithParts, Session } from '../../api/types'

/** The user's choice for the session, else the session's own model, else the model of its last message. */
export function modelToKeep(chosen: ModelRef | undefined, session: Session | undefined, messages: MessageWithParts[]): ModelRef | undefined {
  if (chosen) return chosen
  if (session?.model) return { providerID: session.model.providerID, modelID: session.model.id }
  for (let i = messages.length - 1; i >= 0; i--) {
    const info = messages[i]!.info
    if (info.role === 'assistant' && info.providerID && info.modelID) return { providerID: info.providerID, modelID: info.modelID }
    if (info.role === 'user' && info.model) return { providerID: info.model.providerID, modelID: info.model.modelID }
  }
  return undefined
}
