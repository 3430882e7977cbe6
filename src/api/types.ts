/** The opencode shapes the renderer uses, re-exported from the v2 SDK so there is one source. */
import type { AssistantMessage, Event, Message, Part, Session, SessionStatus, ToolPart, UserMessage } from '@opencode-ai/sdk/v2/client'

export type { Agent, Provider, Model, TextPart } from '@opencode-ai/sdk/v2/client'
export type { AssistantMessage, Event, Message, Part, Session, SessionStatus, ToolPart, UserMessage }

/** One entry of `session.messages`: the message and its parts in server order. */
export interface MessageWithParts {
  info: Message
  parts: Part[]
}

/** The error object opencode puts on a failed assistant message and in `session.error`. */
export type MessageError = NonNullable<AssistantMessage['error']>

/** Session id → status. Idle sessions are absent on the server; the cache keeps explicit idles. */
export type StatusMap = Record<string, SessionStatus>

/** The event frames the cache reducer understands (others pass through untouched). */
export type OpencodeEvent = Event
