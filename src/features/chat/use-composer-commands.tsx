/**
 * Slash commands in the chat's composer, as one hook so the chat panel only wires it: the popup
 * (useSlashMenu), the send path's interception (a command never reaches the model as text), the
 * bridge that hands the retake context out of the retake layer, and the line saying what a command
 * did.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { MessageWithParts } from '../../api/types'
import type { ModelOption } from '../models'
import { useRetakeContext, type RetakeContextValue } from '../retake'
import { oneLine, parseDraft, type CompletionItem } from './slash-commands'
import { useAgents, useFindFiles, useServerCommands } from '../../api/queries'
import { useScope } from '../../api/scope'
import { draftKey } from './drafts-store'
import { mentionAt, mentionItems, type Mention } from './mentions'
import { useMentionsStore } from './mentions-store'
import { turnTexts, useSessionCommands } from './use-session-commands'
import { useSlashMenu, type ComposerAssist } from './use-slash-menu'
import '../../styles/commands.css'

/** How long a command's notice stays: what it did, and why it could not. */
export const NOTICE_MS = 6_000
export const NOTICE_ERROR_MS = 12_000

/** Rendered inside the retake layer: keeps a ref to its context for commands typed outside it. */
function RetakeContextBridge({ into }: { into: { current: RetakeContextValue | null } }) {
  const ctx = useRetakeContext()
  useEffect(() => {
    into.current = ctx
    return () => {
      into.current = null
    }
  }, [ctx, into])
  return null
}

/** One of opencode's commands, run on the server as a turn (its template expanded there). */
export interface OpencodeCommandTurn {
  command: string
  arguments: string
}

export interface ComposerCommands {
  assist: ComposerAssist
  /**
   * What to send for this draft: text, an opencode command's turn, or null when the draft was one of
   * Retake's commands (handled here) or an unknown one.
   */
  intercept(draft: string): string | OpencodeCommandTurn | null
  /** To render inside RetakeSessionLayer. */
  bridge: ReactNode
}

export function useComposerCommands(opts: {
  sessionID: string | undefined
  messages: readonly MessageWithParts[]
  options: readonly ModelOption[]
  draft: string
  setDraft(text: string): void
}): ComposerCommands {
  const { draft, setDraft } = opts
  const retake = useRef<RetakeContextValue | null>(null)
  const run = useSessionCommands({ sessionID: opts.sessionID, messages: opts.messages, options: opts.options, retake })
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null)
  const serverCommands = useServerCommands().data
  // A notice belongs to the session it was given in.
  useEffect(() => setNotice(null), [opts.sessionID])
  // None needs an answer: each leaves on its own (an error stays long enough to read).
  useEffect(() => {
    if (!notice) return
    const t = setTimeout(() => setNotice(null), notice.ok ? NOTICE_MS : NOTICE_ERROR_MS)
    return () => clearTimeout(t)
  }, [notice])

  const intercept = useCallback(
    (text: string): string | OpencodeCommandTurn | null => {
      const parsed = parseDraft(text, serverCommands)
      if (parsed.kind === 'text') return parsed.text
      if (parsed.kind === 'opencode') {
        setNotice(null)
        return { command: parsed.name, arguments: parsed.arg }
      }
      if (parsed.kind === 'unknown') {
        // Kept in the composer, not sent: the user may have meant a command.
        setNotice({
          ok: false,
          text: `Unknown command /${parsed.name}${serverCommands ? '' : ' (opencode’s commands are still loading)'}. Type / to see the commands, or start with // to send text beginning with /.`,
        })
        return null
      }
      setDraft('')
      setNotice(null)
      void run(parsed).then((out) => {
        if (out.message) setNotice({ ok: out.ok, text: out.message })
        if (out.draft) setDraft(out.draft)
      })
      return null
    },
    [run, setDraft, serverCommands],
  )

  const data = useMemo(
    () => ({
      models: opts.options.map((o) => ({ key: o.key, label: o.modelName })),
      turns: turnTexts(opts.messages).map((t) => ({ text: oneLine(t.text) })),
      commands: serverCommands,
    }),
    [opts.options, opts.messages, serverCommands],
  )
  const mention = useMentionSearch(opts.sessionID, draft)
  const assist = useSlashMenu({
    draft,
    data,
    onChange: setDraft,
    onRun: (text) => void intercept(text),
    items: mention.items,
    label: mention.items ? 'Files and agents' : 'Commands',
    onPick: mention.onPick,
    onCaret: mention.setCaret,
    notice: notice && (
      <div className={`slash-notice${notice.ok ? '' : ' slash-notice-error'}`} role="status" data-testid="slash-notice">
        {notice.text}
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => setNotice(null)}>
          ×
        </button>
      </div>
    ),
  })
  return { assist, intercept, bridge: <RetakeContextBridge into={retake} /> }
}

/** The `@` being typed at the caret: its matches (files from the server, agents) and what picking one records. */
function useMentionSearch(sessionID: string | undefined, draft: string) {
  const { directory } = useScope()
  const [caret, setCaret] = useState(draft.length)
  // Typing moves the caret with the text; a draft set from elsewhere (a pick, a restore) puts it at the end.
  const at = mentionAt(draft, Math.min(caret, draft.length))
  const files = useFindFiles(at ? at.query : null)
  const agents = useAgents()
  const subagents = useMemo(() => (agents.data ?? []).filter((a) => a.mode !== 'primary' && !a.hidden), [agents.data])
  const items = at ? mentionItems(draft, Math.min(caret, draft.length), { files: files.data ?? [], agents: subagents }) : null
  const onPick = (item: CompletionItem) => {
    const picked = (item as CompletionItem & { mention?: Mention }).mention
    if (picked) useMentionsStore.getState().add(draftKey(directory, sessionID), picked)
  }
  return { items, onPick, setCaret }
}
