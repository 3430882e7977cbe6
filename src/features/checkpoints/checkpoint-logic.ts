/**
 * Decisions behind every restore (the Checkpoints panel and the retake's restore sheet), as pure
 * functions: which turns a retake rolls back, how a turn is labelled and summed up, what a restore
 * plan will do in words, what the restore sheet offers for each purpose, which conflicts the user
 * chose to overwrite, how a result or an undo is reported, and how the clean-up inputs are read.
 * Components only render these.
 */
import type { MessageWithParts } from '../../api/types'
import type { ChangeItem, RestorePlan, RestoreResult, TurnCheckpoint } from '../../../shared/ipc-contract'
import { messageText } from '../../api/message-text'
import { displayFilePath } from '../../../shared/display-path'

/** Turns from `messageID` onward (list order) that changed files and are not rolled back already. */
export function turnsWithFileChanges(userMessageIDs: readonly string[], messageID: string, turns: readonly TurnCheckpoint[]): TurnCheckpoint[] {
  const i = userMessageIDs.indexOf(messageID)
  if (i < 0) return []
  const later = new Set(userMessageIDs.slice(i))
  return turns.filter((t) => later.has(t.messageID) && t.status !== 'restored' && t.changes.length > 0)
}

export interface ChangeSummary {
  added: number
  modified: number
  deleted: number
  /** Mode or type changes: rolled back too, but neither added nor edited. */
  other: number
  notCheckpointed: number
  plus: number
  minus: number
  binary: number
}

export function summarizeChanges(changes: ChangeItem[]): ChangeSummary {
  const s: ChangeSummary = { added: 0, modified: 0, deleted: 0, other: 0, notCheckpointed: 0, plus: 0, minus: 0, binary: 0 }
  for (const c of changes) {
    if (c.change === 'added') s.added++
    else if (c.change === 'modified') s.modified++
    else if (c.change === 'deleted') s.deleted++
    else if (c.change === 'not-checkpointed') s.notCheckpointed++
    else s.other++
    if (c.binary) s.binary++
    s.plus += c.added
    s.minus += c.removed
  }
  return s
}

/** "2 added · 1 modified" — empty parts left out so a one-file turn reads short. */
export function summaryText(s: ChangeSummary): string {
  const parts: string[] = []
  if (s.added) parts.push(`${s.added} added`)
  if (s.modified) parts.push(`${s.modified} modified`)
  if (s.deleted) parts.push(`${s.deleted} deleted`)
  if (s.other) parts.push(`${s.other} mode/type`)
  if (s.notCheckpointed) parts.push(`${s.notCheckpointed} not checkpointed`)
  return parts.length ? parts.join(' · ') : 'no file changes'
}

const MAX_LABEL = 80

/**
 * The turn's user text when the messages cache has it (a turn is keyed by its user message id),
 * else its time: checkpoints outlive a message list that was not loaded or was reverted.
 */
export function turnLabel(turn: Pick<TurnCheckpoint, 'messageID' | 'createdAt'>, messages: MessageWithParts[] | undefined): string {
  const m = messages?.find((x) => x.info.id === turn.messageID)
  const text = m ? messageText(m).replace(/\s+/g, ' ').trim() : ''
  if (text) return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text
  return `Turn at ${new Date(turn.createdAt).toLocaleString()}`
}

export function statusLabel(status: TurnCheckpoint['status']): string {
  return status === 'open' ? 'running' : status === 'restored' ? 'restored' : 'recorded'
}

export type PlanAction = RestorePlan['actions'][number]

export interface PlanGroups {
  /** Put back to their earlier content (restore) or brought back after the turn deleted them. */
  restored: PlanAction[]
  /** Created by the turn(s): removed. */
  removed: PlanAction[]
  conflicts: PlanAction[]
  /** Over the size cap or unreadable when captured: left alone. */
  untouched: PlanAction[]
  unchanged: number
}

export function groupPlan(plan: RestorePlan): PlanGroups {
  const g: PlanGroups = { restored: [], removed: [], conflicts: [], untouched: [], unchanged: 0 }
  for (const a of plan.actions) {
    if (a.kind === 'restore' || a.kind === 'recreate') g.restored.push(a)
    else if (a.kind === 'delete') g.removed.push(a)
    else if (a.kind === 'conflict') g.conflicts.push(a)
    else if (a.kind === 'not-checkpointed' || a.kind === 'not-this-turn') g.untouched.push(a)
    else g.unchanged++
  }
  return g
}

/** Nothing to write: the confirm button would be a no-op, so the sheet says so instead. */
export function planIsEmpty(g: PlanGroups): boolean {
  return g.restored.length + g.removed.length + g.conflicts.length === 0
}

export type ConflictChoice = 'keep' | 'take'

/** What a restore rolls back: files and conversation, the conversation only, or the files only. */
export type RestoreMode = 'both' | 'conversation' | 'files'

/** What the restore sheet was opened for: ↺ (a retake), "continue from this attempt", or the Checkpoints panel (files only). */
export type RestorePurposeKind = 'retake' | 'rewind' | 'continue' | 'files'

/**
 * The roll-back choices a sheet offers, the default first. Continuing switches the conversation, so
 * it has no files only; the Checkpoints panel never touches the conversation, so it has files only
 * (and shows no choice).
 */
export function restoreModes(kind: RestorePurposeKind): RestoreMode[] {
  if (kind === 'files') return ['files']
  // Continuing and going back are about the conversation: files only is the panel's restore.
  return kind === 'continue' || kind === 'rewind' ? ['both', 'conversation'] : ['both', 'conversation', 'files']
}

/**
 * Whether the sheet's confirm can be pressed: files move only with a plan, a files-only restore with
 * nothing to write would be a no-op (the sheet says so instead), and one restore at a time.
 */
export function canConfirmRestore(s: { mode: RestoreMode; planned: boolean; empty: boolean; applying: boolean }): boolean {
  if (s.applying) return false
  if (s.mode === 'conversation') return true
  return s.planned && !(s.mode === 'files' && s.empty)
}

/** /rewind's sheet and its button: what will happen, not "Retake" (nothing is sent). */
export const REWIND_TITLE = 'Go back to before this turn'

export function confirmRestoreLabel(kind: RestorePurposeKind, mode: RestoreMode, applying: boolean): string {
  if (kind === 'continue') return 'Continue from this attempt'
  if (kind === 'rewind') return REWIND_TITLE
  if (kind === 'files') return applying ? 'Restoring…' : 'Restore files'
  return mode === 'files' ? 'Restore files' : 'Retake'
}

/** The panel's files-only restore in a sentence: how many turns it undoes (once planned), and that the conversation stays. */
export function filesOnlyIntro(turns: number | null): string {
  const undoes = turns === null ? '' : turns === 1 ? 'Undoes what this turn did on disk. ' : `Undoes what these ${turns} turns did on disk. `
  return `${undoes}The conversation is not changed.`
}

/** Keep my version is the default: only conflicts explicitly switched to putting the earlier version back are overwritten. */
export function overwriteIds(conflicts: PlanAction[], choices: Record<string, ConflictChoice>): string[] {
  return conflicts.filter((c) => choices[c.id] === 'take').map((c) => c.id)
}

export function pathOf(x: { root: string; path: string }, projectRoot: string): string {
  return displayFilePath(x, projectRoot)
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** One sentence for an apply result; lists come separately. */
export function resultHeadline(r: RestoreResult, verb: 'Restore' | 'Undo' | 'Redo'): string {
  if (r.status === 'noop') return `${verb}: nothing to change, the files already match.`
  if (r.status === 'cancelled') return `${verb} cancelled: nothing was changed.`
  // Counted per kind ("1 file removed, 1 file restored"): "2 files restored" read wrong when the
  // restore deleted what the turns had created.
  const byVerb = new Map<string, number>()
  for (const a of r.applied) byVerb.set(actionVerb(a.kind), (byVerb.get(actionVerb(a.kind)) ?? 0) + 1)
  const parts = [...byVerb].map(([v, n]) => `${plural(n, 'file')} ${v}`)
  if (parts.length === 0) parts.push('no file written')
  if (r.skipped.length) parts.push(`${plural(r.skipped.length, 'file')} kept as they are`)
  if (r.failed.length) parts.push(`${plural(r.failed.length, 'file')} failed`)
  return `${verb} ${r.status === 'done' ? 'done' : 'partly done'}: ${parts.join(', ')}.`
}

/** The counts of a restore or an undo, as the Undo bar words them (each applied file with what was done to it). */
export interface RestoreCounts {
  applied: { kind: string }[]
  skipped: unknown[]
  failed: unknown[]
}

const isWas = (n: number) => (n === 1 ? 'it was' : 'they were')

/** "1 file deleted, 2 files put back": what a roll-back did, per kind. */
function appliedParts(applied: { kind: string }[]): string[] {
  const byWord = new Map<string, number>()
  const word = (kind: string) => (kind === 'delete' ? 'deleted' : kind === 'recreate' ? 'brought back' : 'put back')
  for (const a of applied) byWord.set(word(a.kind), (byWord.get(word(a.kind)) ?? 0) + 1)
  return [...byWord].map(([w, n]) => `${plural(n, 'file')} ${w}`)
}

/** What the Undo bar says about a restore just made: the turn's changes undone; what the user kept stays. */
export function restoreNoteText(r: RestoreCounts): string {
  const parts = appliedParts(r.applied)
  if (parts.length === 0) parts.push('no file written')
  if (r.skipped.length) parts.push(`${plural(r.skipped.length, 'file')} kept as ${isWas(r.skipped.length)}`)
  if (r.failed.length) parts.push(`${r.failed.length} failed`)
  return `The turn’s file changes were rolled back: ${parts.join(', ')}.`
}

/** What the Undo bar says and about which state of the files: rolled back (by the restore or a redo) or not (undone). */
export interface UndoBarNote {
  text: string
  rolledBack: boolean
}

/**
 * After the bar's click: `undid` when it undid the restore (the files are back as the turn, and
 * whatever came after it, left them), else it redid it. A file changed since the restore is
 * left as it is now: by whom Retake cannot tell, so it does not say.
 */
export function undoBarNoteAfter(r: RestoreCounts, undid: boolean): UndoBarNote {
  const n = r.applied.length
  const extra = r.skipped.length ? `; ${plural(r.skipped.length, 'file')} changed since the restore stayed as ${isWas(r.skipped.length)}` : ''
  return undid
    ? { text: `Restore undone: ${plural(n, 'file')} back as ${isWas(n)} before the restore${extra}.`, rolledBack: false }
    : { text: `Restore redone: ${plural(n, 'file')} rolled back to before the turn again${extra}.`, rolledBack: true }
}

/** An undo or redo that found the files already that way (the bar and /undo say the same). */
export const NOTHING_CHANGED = 'Nothing changed: the files already were that way.'

/**
 * The bar's text: what it said last, unless the host's record has moved since without it (undone or
 * redone from the Checkpoints panel or /undo): then the files' state as the host has it. While a
 * click or a read is under way the host's answer may be half there, so the last words stay.
 */
export function undoBarText(said: UndoBarNote, hostRolledBack: boolean, settling: boolean): string {
  if (settling || said.rolledBack === hostRolledBack) return said.text
  return hostRolledBack ? 'The turn’s file changes are rolled back again.' : 'The files are back as they were before the restore.'
}

/** Only a restore that wrote something can be undone (noop and cancelled leave no restore record). */
export function undoableRestoreId(r: RestoreResult): string | null {
  return r.restoreId && (r.status === 'done' || r.status === 'partial') && r.applied.length > 0 ? r.restoreId : null
}

export function actionVerb(kind: string): string {
  switch (kind) {
    case 'restore':
      return 'restored'
    case 'recreate':
      return 'brought back'
    case 'delete':
      return 'removed'
    case 'conflict':
      // Applied conflicts are the ones the user chose to put back (or delete) for.
      return 'overwritten'
    default:
      return kind
  }
}

export interface CleanupInput {
  maxAgeDays?: number
  maxTurnsPerSession?: number
}

/**
 * Reads the clean-up fields: blank means "no limit"; anything else must be a positive number
 * (whole for turns), because the host rejects zero and a clean-up with no limit only sweeps.
 */
export function parseCleanup(ageText: string, turnsText: string): { ok: true; value: CleanupInput } | { ok: false; error: string } {
  const value: CleanupInput = {}
  const age = ageText.trim()
  const turns = turnsText.trim()
  if (age) {
    const n = Number(age)
    if (!Number.isFinite(n) || n <= 0) return { ok: false, error: 'Max age must be a positive number of days.' }
    value.maxAgeDays = n
  }
  if (turns) {
    const n = Number(turns)
    if (!Number.isInteger(n) || n <= 0) return { ok: false, error: 'Max turns per session must be a whole number above 0.' }
    value.maxTurnsPerSession = n
  }
  return { ok: true, value }
}
