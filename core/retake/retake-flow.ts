/**
 * ↺ Retake as one serialized flow: rebuild the payload → save it → (abort if busy) → revert →
 * delete the message's parts (each result checked) → verify they are gone → prompt with the SAME
 * messageID and the model chosen now. Every dependency is injected, so the flow is tested as a state
 * machine with a failure at every step; the payload is saved before anything destructive runs, so no
 * failure can lose the user's message (retry-lessons bug 1).
 */
import type { Part } from '@opencode-ai/sdk/v2'
import type { Attempt, FileChoices, ModelRef, PartInput, RetakeStep, SavedRetake } from '../../shared/ipc-contract'
import { buildRetryPayload, withEditedText, type RetryMessageInfo } from '../../shared/retake/retry-payload'
import { isCheckpointFailure } from '../../shared/retake/checkpoint-failure'

export interface StoredMessage {
  info: RetryMessageInfo & { id: string; role: string }
  parts: Part[]
}

/** The assistant message a prompt returns (only the fields the flow checks). */
export interface PromptResult {
  info: { id: string; role: string; parentID?: string; error?: { name?: string; data?: { message?: string } } }
  parts: unknown[]
}

export interface RetakeRequest {
  sessionID: string
  messageID: string
  directory: string
  /** The user message as stored now (null when "Send again" finds it gone). */
  message: StoredMessage | null
  /** The model chosen now; the retake uses it, whatever the turn used before. */
  model: ModelRef
  variant?: string
  /** The answers being replaced, kept in the local attempt history. */
  previousAnswers: unknown[]
  previousModel?: ModelRef
  /** A payload saved by an earlier retake that did not go through ("Send again"). */
  saved?: SavedRetake
  /** Roll the files back too: the restore plan (kept in the host), the conflicts to overwrite, the files to keep. */
  files?: FileChoices
  /** Prompt even though the host cannot record a checkpoint (the user chose so). */
  skipCheckpoint?: boolean
  /** "Edit and retake": the typed text replaced by this (attachments kept). */
  editedText?: string
}

/** What a file restore did (the host's checkpoints.apply result). */
export interface FileRestoreResult {
  restoreId: string | null
  status: 'done' | 'partial' | 'cancelled' | 'noop'
  applied: { path: string }[]
  failed: { path: string; error: string }[]
  skipped: { path: string; reason: string }[]
}

export interface RetakeDeps {
  save(entry: SavedRetake): Promise<void>
  drop(sessionID: string, messageID: string): Promise<void>
  recordAttempt(attempt: Attempt): Promise<void>
  /** Takes back an attempt recorded by a retake that then stopped before the conversation changed. */
  forgetAttempt?(sessionID: string, messageID: string, at: number): Promise<void>
  isBusy(sessionID: string): Promise<boolean>
  abortAndWaitIdle(sessionID: string): Promise<void>
  /** GET the message; null when the server does not have it (404). */
  getMessage(sessionID: string, messageID: string): Promise<{ parts: { id: string }[] } | null>
  /** session.revert, unwrapped: the session it returns. */
  revert(sessionID: string, messageID: string): Promise<{ revert?: { messageID?: string } }>
  /** part.delete, unwrapped: the server's answer (true). */
  deletePart(sessionID: string, messageID: string, partID: string): Promise<unknown>
  /** Sets aside the files the user keeps, before the server's revert may touch them. */
  holdKept?(planId: string, overwrite: string[], keep?: string[]): Promise<string>
  putBackKept?(holdId: string): Promise<{ failed: { path: string; error: string }[] }>
  restoreFiles?(planId: string, overwrite: string[], keep?: string[]): Promise<FileRestoreResult>
  /** Undoes a file restore (when the conversation could not follow it). */
  undoFiles?(restoreId: string): Promise<unknown>
  prompt(
    body: { sessionID: string; messageID: string; parts: PartInput[]; model: ModelRef; agent?: string; variant?: string },
    opts?: { skipCheckpoint?: boolean },
  ): Promise<PromptResult>
  now(): number
  /** Each step with its duration, for the log. */
  onStep?(step: RetakeStep, ms: number): void
}

export type RetakeFlowOutcome =
  /** The turn ran again; `turnError` is set when the new turn itself failed (shown in the timeline). */
  { status: 'done'; assistant: PromptResult['info']; turnError?: string; restore?: FileRestoreResult }

/** A rewind: back to before the turn, nothing sent; `parts` is the turn to edit. */
export type RewindOutcome = { status: 'rewound'; parts: PartInput[]; restore?: FileRestoreResult }

export class RetakeError extends Error {
  constructor(
    readonly step: RetakeStep,
    message: string,
    /** The payload as saved (state failed), or null when nothing destructive had run. */
    readonly saved: SavedRetake | null,
  ) {
    super(message)
    this.name = 'RetakeError'
  }
}

/**
 * What puts the folder back if the retake stops before the server's revert changed the
 * conversation: pushed as each step acts, run newest first (the file restore undone, then the
 * user's kept files put back — last, so their own versions are what remains), each best effort:
 * the error reported is the one that stopped the retake.
 */
class UntilReverted {
  private list: (() => Promise<unknown>)[] = []
  push(f: () => Promise<unknown>): void {
    this.list.push(f)
  }
  drop(f: () => Promise<unknown>): void {
    this.list = this.list.filter((g) => g !== f)
  }
  async unwind(): Promise<void> {
    const list = this.list.reverse()
    this.list = []
    for (const f of list) await f().catch(() => {})
  }
  /** The conversation changed: from here on nothing is put back. */
  clear(): void {
    this.list = []
  }
}

/** One run's state: the step under way (named in a failure), what to put back, the step timer. */
interface Run {
  step: RetakeStep
  undo: UntilReverted
  done(step: RetakeStep): void
}

export function runRetake(req: RetakeRequest, deps: RetakeDeps): Promise<RetakeFlowOutcome> {
  // Without a stop after the revert the flow always ends in the prompt.
  return runFlow(req, deps, false) as Promise<RetakeFlowOutcome>
}

/**
 * /rewind: ↺'s flow up to the revert (payload saved, files restored as chosen, kept files respected,
 * the conversation reverted), then it stops. Nothing is prompted and the message's parts stay
 * (opencode drops the reverted turns at the next prompt); the payload comes back to be edited.
 */
export function runRewind(req: RetakeRequest, deps: RetakeDeps): Promise<RewindOutcome> {
  return runFlow(req, deps, true) as Promise<RewindOutcome>
}

async function runFlow(req: RetakeRequest, deps: RetakeDeps, stopAfterRevert: boolean): Promise<RetakeFlowOutcome | RewindOutcome> {
  let saved: SavedRetake | null = null
  /** The attempt recorded for the branch this retake replaces, until the server's revert makes it history. */
  let recorded: number | null = null
  let t = deps.now()
  const run: Run = {
    step: 'payload',
    undo: new UntilReverted(),
    done(s) {
      const now = deps.now()
      deps.onStep?.(s, now - t)
      t = now
    },
  }

  try {
    // 1. Payload: from the stored message, or the copy an earlier attempt saved.
    const payload = payloadOf(req)
    run.done('payload')

    // 2. Save before anything destructive.
    run.step = 'save'
    const entry: SavedRetake = {
      sessionID: req.sessionID,
      messageID: req.messageID,
      directory: req.directory,
      parts: payload.parts,
      model: req.model,
      savedAt: deps.now(),
      state: 'pending',
    }
    if (payload.agent) entry.agent = payload.agent
    if (payload.variant) entry.variant = payload.variant
    await deps.save(entry)
    saved = entry
    run.done('save')

    // 3. A busy session refuses revert (409): stop the running turn first. 4. Is the message still
    // there? (A retake that failed after the server dropped it prompts afresh.) Both are reads of
    // state a running turn does not change for a user message, so they are asked at once.
    run.step = 'abort'
    const located = deps.getMessage(req.sessionID, req.messageID)
    located.catch(() => {}) // awaited below, where its failure is reported as the locate step's
    if (await deps.isBusy(req.sessionID)) await deps.abortAndWaitIdle(req.sessionID)
    run.done('abort')
    run.step = 'locate'
    const present = await located
    run.done('locate')

    let restore: FileRestoreResult | undefined
    if (present) {
      // The branch being replaced is kept before anything changes: a crash after the server's
      // revert must not lose it. Taken back if the retake stops before the revert.
      if (req.previousAnswers.length > 0) recorded = await keepBranch(req, deps, run)
      const files = req.files ? await restoreFiles(req.files, deps, run) : null
      restore = files?.restore
      await revert(req, deps, run, files?.putBack ?? null)
      run.undo.clear()
      recorded = null // the conversation changed: the attempt is history now
      if (stopAfterRevert) return rewound(req, payload.parts, deps, restore)
      await deleteParts(req, present.parts, deps, run)
    } else if (stopAfterRevert) {
      throw new Error('the message is no longer on the server: there is nothing to go back before')
    }

    run.step = 'prompt'
    const { parts, agent, variant } = payload
    const result = await deps.prompt(
      { sessionID: req.sessionID, messageID: req.messageID, parts, model: req.model, agent, variant },
      req.skipCheckpoint ? { skipCheckpoint: true } : undefined,
    )
    if (result.info.role === 'assistant' && result.info.parentID && result.info.parentID !== req.messageID) {
      throw new Error(`the server answered another message (${result.info.parentID}); reload and try again`)
    }
    run.done('prompt')
    await deps.drop(req.sessionID, req.messageID).catch(() => {})
    const turnError = result.info.error ? (result.info.error.data?.message ?? result.info.error.name ?? 'the turn failed') : undefined
    return { status: 'done', assistant: result.info, ...(turnError ? { turnError } : {}), ...(restore ? { restore } : {}) }
  } catch (err) {
    await run.undo.unwind()
    const message = err instanceof Error ? err.message : String(err)
    if (saved) {
      saved = { ...saved, state: 'failed', error: `${run.step}: ${message}`, ...(isCheckpointFailure(err) ? { noCheckpoint: true } : {}) }
      // Best effort: the pending copy is already on disk, so even if this write fails the text survives.
      await deps.save(saved).catch(() => {})
    }
    if (recorded !== null) await deps.forgetAttempt?.(req.sessionID, req.messageID, recorded).catch(() => {})
    throw new RetakeError(run.step, message, saved)
  }
}

/** The end of a rewind: the saved copy is no longer needed (the parts go to the composer). */
async function rewound(req: RetakeRequest, parts: PartInput[], deps: RetakeDeps, restore: FileRestoreResult | undefined): Promise<RewindOutcome> {
  await deps.drop(req.sessionID, req.messageID).catch(() => {})
  return { status: 'rewound', parts, ...(restore ? { restore } : {}) }
}

/** The parts to send: the stored message's, rebuilt for the model chosen now, or a saved copy's; an edit replaces the typed text. */
function payloadOf(req: RetakeRequest): { parts: PartInput[]; agent?: string; variant?: string } {
  let p: { parts: PartInput[]; agent?: string; variant?: string }
  if (req.saved) p = { parts: req.saved.parts, agent: req.saved.agent, variant: req.variant ?? req.saved.variant }
  else {
    if (!req.message) throw new Error('the message is no longer on the server and no saved copy exists')
    const built = buildRetryPayload({ message: req.message.info, parts: req.message.parts }, { model: req.model, variant: req.variant })
    if ('error' in built) throw new Error(built.error)
    p = built
  }
  if (req.editedText === undefined) return p
  const parts = withEditedText(p.parts, req.editedText)
  if (parts.length === 0) throw new Error('The edited message is empty: type something or keep an attachment')
  return { ...p, parts }
}

/** Records the branch being replaced as an attempt; its `at`. */
async function keepBranch(req: RetakeRequest, deps: RetakeDeps, run: Run): Promise<number> {
  run.step = 'save'
  const at = deps.now()
  await deps.recordAttempt({
    sessionID: req.sessionID,
    messageID: req.messageID,
    model: req.previousModel,
    at,
    messages: req.previousAnswers,
    // The turn as it was asked (an edit replaces it), so the attempt shows its own question.
    ...(req.message ? { user: req.message } : {}),
  })
  run.step = 'locate'
  return at
}

/**
 * Files first, under the engine's lock, while the conversation is still untouched: if they cannot
 * be restored the retake stops here and nothing else changed (a partial restore is undone).
 */
async function restoreFiles(files: FileChoices, deps: RetakeDeps, run: Run): Promise<{ restore: FileRestoreResult; putBack: () => Promise<{ failed: { path: string }[] }> }> {
  const { holdKept, restoreFiles, putBackKept, undoFiles } = deps
  if (!holdKept || !restoreFiles || !putBackKept || !undoFiles) throw new Error('file restore is not available here')
  run.step = 'hold'
  const holdId = await holdKept(files.planId, files.overwrite, files.keep ?? [])
  const putBack = () => putBackKept(holdId)
  run.undo.push(putBack)
  run.done('hold')
  run.step = 'files'
  const restore = await restoreFiles(files.planId, files.overwrite, files.keep ?? [])
  const restoreId = restore.restoreId
  if (restoreId) run.undo.push(() => undoFiles(restoreId))
  if (restore.status === 'partial' || restore.status === 'cancelled' || restore.failed.length > 0) {
    throw new Error(`the files could not all be restored (${restore.failed.map((f) => `${f.path}: ${f.error}`).join('; ') || restore.status})`)
  }
  run.done('files')
  return { restore, putBack }
}

/** The server's revert, proven by its marker; then the user's kept files go back over whatever it rewrote. */
async function revert(req: RetakeRequest, deps: RetakeDeps, run: Run, putBack: (() => Promise<{ failed: { path: string }[] }>) | null): Promise<void> {
  run.step = 'revert'
  const session = await deps.revert(req.sessionID, req.messageID)
  // An unknown id answers 200 and reverts nothing; only the marker proves the revert happened.
  if (session.revert?.messageID !== req.messageID) {
    throw new Error(`the server did not revert to this message (revert marker: ${session.revert?.messageID ?? 'none'})`)
  }
  if (putBack) {
    // In git projects the server's revert rewrites files from its own snapshots; a file the user
    // chose to keep goes back to the user's version, whatever the server did to it.
    const back = await putBack()
    run.undo.drop(putBack)
    if (back.failed.length > 0) throw new Error(`kept files could not be put back: ${back.failed.map((f) => f.path).join(', ')}`)
  }
  run.done('revert')
}

/** Each part deleted (each answer checked); part.delete answers true even for ids it does not know, so a fresh read proves it. */
async function deleteParts(req: RetakeRequest, parts: { id: string }[], deps: RetakeDeps, run: Run): Promise<void> {
  run.step = 'delete-parts'
  for (const part of parts) {
    const ok = await deps.deletePart(req.sessionID, req.messageID, part.id)
    if (ok !== true) throw new Error(`part.delete ${part.id} answered ${JSON.stringify(ok)}`)
  }
  run.done('delete-parts')
  run.step = 'verify'
  const after = await deps.getMessage(req.sessionID, req.messageID)
  if (after && after.parts.length > 0) throw new Error(`${after.parts.length} part(s) still on the message after deletion`)
  run.done('verify')
}
