/**
 * What each turn's tools wrote, read from opencode's stored messages: the evidence the checkpoint
 * planner uses to tell a turn's own changes from another session's or the user's (see
 * checkpoints/plan/attribution.ts). File tools name their files; a tool that can write anywhere makes
 * the turn opaque. Pure: the host fetches the messages, this reads them.
 */
import { isAbsolute, resolve } from 'node:path'
import type { TurnToolUse } from '../checkpoints/index'

/** Tools that change no file. */
const READ_ONLY = new Set([
  'read',
  'list',
  'ls',
  'glob',
  'grep',
  'webfetch',
  'websearch',
  'codesearch',
  'todowrite',
  'todoread',
  'question',
  'skill',
  'lsp_diagnostics',
  'lsp_hover',
  'invalid',
])
/** Tools that write exactly the file their `filePath` names. */
const FILE_TOOLS = new Set(['write', 'edit', 'multiedit'])
/** Tools that carry a patch naming the files it adds, updates, deletes or moves. */
const PATCH_TOOLS = new Set(['patch', 'apply_patch'])

interface StoredPart {
  type: string
  tool?: string
  state?: { input?: Record<string, unknown> }
}
export interface StoredMessage {
  info: { id: string; role: string; parentID?: string }
  parts: StoredPart[]
}

const PATCH_FILE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm

function patchPaths(text: string): string[] {
  return [...text.matchAll(PATCH_FILE)].map((m) => m[1]!.trim())
}

/** Tool use per user message (turn) of one session; every user message present gets an entry. */
export function toolUseByTurn(messages: readonly StoredMessage[], directory: string): Map<string, TurnToolUse> {
  const out = new Map<string, { paths: Set<string>; opaque: boolean }>()
  for (const m of messages) if (m.info.role === 'user') out.set(m.info.id, { paths: new Set(), opaque: false })
  const abs = (p: string) => resolve(directory, p)
  for (const m of messages) {
    if (m.info.role !== 'assistant' || !m.info.parentID) continue
    const use = out.get(m.info.parentID)
    if (!use) continue
    for (const part of m.parts) {
      if (part.type !== 'tool' || !part.tool) continue
      const input = part.state?.input ?? {}
      if (READ_ONLY.has(part.tool)) continue
      if (FILE_TOOLS.has(part.tool) && typeof input.filePath === 'string') {
        use.paths.add(abs(input.filePath))
      } else if (PATCH_TOOLS.has(part.tool) && typeof input.patchText === 'string') {
        for (const p of patchPaths(input.patchText)) use.paths.add(isAbsolute(p) ? p : abs(p))
      } else {
        // A shell, a sub-agent, an MCP tool, or a file tool whose input is not readable: anything.
        use.opaque = true
      }
    }
  }
  return out
}
