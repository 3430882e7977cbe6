/**
 * What /retake, /rewind and /undo do. They go through the same doors as the buttons: /retake and
 * /rewind through the open session's retake context (so a turn that changed files opens the restore
 * sheet, exactly as ↺ does), /undo through the session's last-restore query (the host's record that
 * UndoRestoreBar and the checkpoints panel read and undo too).
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useCallback, type MutableRefObject } from 'react'
import type { MessageWithParts } from '../../api/types'
import { useScope } from '../../api/scope'
import { errorMessage } from '../../../shared/unwrap'
import { lastRestoreQuery, NOTHING_CHANGED, undoBarNoteAfter, useUndoRestore } from '../checkpoints'
import type { ModelOption } from '../models'
import { messageText } from '../../api/message-text'
import { findModel, SLASH_COMMANDS, type ParsedDraft } from './slash-commands'
import type { RetakeContextValue } from '../retake'
import { laterTurns, retakeEntry } from '../../../shared/retake/retake-target'

export interface CommandOutcome {
  ok: boolean
  message?: string
  /** The draft to leave in the composer (e.g. `/rewind ` to pick a turn); empty by default. */
  draft?: string
}

export function userTurns(messages: readonly MessageWithParts[]): MessageWithParts[] {
  return messages.filter((m) => m.info.role === 'user')
}

export function turnTexts(messages: readonly MessageWithParts[]): Array<{ text: string }> {
  return userTurns(messages).map((m) => ({ text: messageText(m) }))
}

type SlashCommand = Extract<ParsedDraft, { kind: 'command' }>
type Model = NonNullable<RetakeContextValue['model']>

/** /retake [model] and /rewind [n]: checks shared by both, then the model (/retake may name one). */
function retakeCommand(cmd: SlashCommand, ctx: RetakeContextValue, turns: MessageWithParts[], options: readonly ModelOption[]): CommandOutcome {
  if (ctx.locked) return { ok: false, message: 'A retake of this conversation is already running.' }
  if (!turns.length) return { ok: false, message: 'There is no turn to go back to yet.' }
  let model = ctx.model
  if (cmd.name === 'retake' && cmd.arg) {
    const found = findModel(
      options.map((o) => ({ ...o, label: o.modelName })),
      cmd.arg,
    )
    if (!found) return { ok: false, message: `No single model matches “${cmd.arg}”.`, draft: `/retake ${cmd.arg}` }
    // As "Retake with…": the named model becomes the session's when the retake runs (not before
    // the restore sheet is confirmed: a Cancel there leaves the model as it was).
    model = found.ref
  }
  if (!model) return { ok: false, message: 'Choose a model first.' }
  return cmd.name === 'retake' ? retakeLastTurn(ctx, turns, model) : rewindTo(cmd.arg, ctx, turns, model)
}

function retakeLastTurn(ctx: RetakeContextValue, turns: MessageWithParts[], model: Model): CommandOutcome {
  const target = turns[turns.length - 1]!.info.id
  // ↺'s own decision; a confirmation can only be about reverted turns here, which the
  // retake discards anyway, so it goes ahead.
  const entry = retakeEntry(ctx.changedFiles(target), laterTurns(ctx.getMessages(), target))
  if (entry === 'sheet') ctx.openRestoreSheet(target, model)
  else void ctx.retake(target, model)
  return { ok: true }
}

function rewindTo(arg: string | undefined, ctx: RetakeContextValue, turns: MessageWithParts[], model: Model): CommandOutcome {
  if (!arg) return { ok: false, message: `Pick a turn: /rewind 1–${turns.length}.`, draft: '/rewind ' }
  const n = Number(arg)
  if (!Number.isInteger(n) || n < 1 || n > turns.length) return { ok: false, message: `There is no turn ${arg}: choose 1–${turns.length}.`, draft: '/rewind ' }
  // Going back is always confirmed on the restore sheet: it says what is discarded and lets
  // the files stay; it sends nothing (the turn's message comes back to the composer).
  ctx.openRewindSheet(turns[n - 1]!.info.id, model)
  return { ok: true }
}

/**
 * /undo: the host's record of the session's last restore, read afresh through its query (so the Undo
 * bar and the panel see the same), undone as UndoRestoreBar does (the undo invalidates the query).
 */
async function undoLastRestore(qc: QueryClient, directory: string, sessionID: string, undoRestore: ReturnType<typeof useUndoRestore>['mutateAsync']): Promise<CommandOutcome> {
  try {
    const last = await qc.fetchQuery(lastRestoreQuery(directory, sessionID))
    if (!last) return { ok: false, message: 'No file restore to undo in this conversation.' }
    if (!last.rolledBack) return { ok: false, message: 'The last restore was already undone.' }
    const r = await undoRestore(last.restoreId)
    // The Undo bar's own words: the same undo says the same thing wherever it was asked.
    if (!r.restoreId) return { ok: true, message: NOTHING_CHANGED }
    return { ok: true, message: undoBarNoteAfter(r, true).text }
  } catch (err) {
    return { ok: false, message: `Undo failed: ${errorMessage(err)}` }
  }
}

export function useSessionCommands(opts: {
  sessionID: string | undefined
  /** The messages shown (reverted turns are not offered). */
  messages: readonly MessageWithParts[]
  options: readonly ModelOption[]
  /** The open session's retake context, filled in by RetakeContextBridge. */
  retake: MutableRefObject<RetakeContextValue | null>
}): (cmd: SlashCommand) => Promise<CommandOutcome> {
  const { directory } = useScope()
  const qc = useQueryClient()
  const undo = useUndoRestore()
  const { sessionID, messages, options, retake } = opts
  const { mutateAsync: undoRestore } = undo

  return useCallback(
    async (cmd) => {
      const ctx = retake.current
      if (!sessionID || !ctx) return { ok: false, message: `/${cmd.name} needs a conversation with turns.` }
      const turns = userTurns(messages)
      if (cmd.name === 'retake' || cmd.name === 'rewind') return retakeCommand(cmd, ctx, turns, options)
      if (cmd.name === 'undo') return undoLastRestore(qc, directory, sessionID, undoRestore)
      return { ok: false, message: `Unknown command. Try ${SLASH_COMMANDS.map((c) => `/${c.name}`).join(', ')}.` }
    },
    [sessionID, messages, options, retake, qc, directory, undoRestore],
  )
}
