/**
 * The action row under a message or an error block. Copy is built in; further actions (the ↺ retake)
 * plug in through MessageActionsProvider, so the timeline does not need to know about them.
 */
import { createContext, useContext, type ReactNode } from 'react'
import type { MessageWithParts } from '../api/types'
import { CopyButton } from './CopyButton'

export type ActionTarget = 'user' | 'assistant' | 'error'

/** Renders extra actions for a message (e.g. retake); return null for none. */
export type ExtraActions = (message: MessageWithParts, target: ActionTarget) => ReactNode

const ExtraActionsContext = createContext<ExtraActions | null>(null)
/** Always-visible additions under the action row (what a turn changed, attempts, a failed retake). */
const BelowContext = createContext<ExtraActions | null>(null)

export function MessageActionsProvider({ render, below, children }: { render: ExtraActions; below?: ExtraActions; children: ReactNode }) {
  return (
    <ExtraActionsContext.Provider value={render}>
      <BelowContext.Provider value={below ?? null}>{children}</BelowContext.Provider>
    </ExtraActionsContext.Provider>
  )
}

export function MessageActions({ message, target, copyText }: { message: MessageWithParts; target: ActionTarget; copyText: () => string }) {
  const extra = useContext(ExtraActionsContext)
  const below = useContext(BelowContext)
  return (
    <>
      <div className="message-actions" data-testid="message-actions" data-target={target}>
        <CopyButton text={copyText} label={target === 'error' ? 'Copy error' : 'Copy message'} />
        {extra?.(message, target)}
      </div>
      {below?.(message, target)}
    </>
  )
}
