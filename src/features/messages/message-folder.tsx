/**
 * The folder a message's turn ran in (opencode's `path.cwd` on an assistant message), for tool cards:
 * a forked session's copied turns ran in the folder it came from, and their paths read relative to
 * it as they would in the fork's own folder.
 */
import { createContext, useContext, useMemo } from 'react'
import { useOptionalDirectory } from '../../api/scope'
import type { MessageWithParts } from '../../api/types'

const MessageFolderContext = createContext<string | undefined>(undefined)

export const MessageFolderProvider = MessageFolderContext.Provider

export function messageFolder(m: MessageWithParts): string | undefined {
  return m.info.role === 'assistant' ? m.info.path?.cwd || undefined : undefined
}

/** The folders a tool card's paths read relative to: the project, then the turn's own. */
export function useToolPathRoots(): readonly (string | undefined)[] {
  const directory = useOptionalDirectory()
  const folder = useContext(MessageFolderContext)
  return useMemo(() => [directory, folder], [directory, folder])
}
