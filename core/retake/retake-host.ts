/**
 * ↺ as one transaction on the host (main process or browser-mode host), not calls from the window:
 * closing the window, reloading it or a crash of the renderer cannot leave files restored and the
 * conversation not. The flow itself is the tested state machine in retake-flow.ts; this module gives
 * it the host's I/O (opencode directly, with the prompt's checkpoint taken by a call, the
 * checkpoint service, the stores) and journals each destructive step, so a retake cut off by Retake's own death is
 * finished or undone at the next start (recovery.ts).
 */
import type { OpencodeClient } from '@opencode-ai/sdk/v2/client'
import type { z } from 'zod'
import type { AttemptContinueOutcome, EventPayload, RetakeCompareOutcome, RetakeCompareSchema, RetakeOutcome, RetakeRunSchema, SessionForkOutcome } from '../../shared/ipc-contract'
import { runRetake, runRewind, RetakeError, type RetakeDeps, type StoredMessage } from './retake-flow'
import { answersTo, retakeTargetFor } from '../../shared/retake/retake-target'
import { createSdkRetakeDeps } from './sdk-retake-deps'
import { unwrap } from '../../shared/unwrap'
import type { CheckpointService } from '../checkpoint-service'
import type { OpencodeConnection } from '../server/connection'
import { hostClient, hostPost as postTo } from '../server/host-client'
import type { TurnCheckpoints } from '../turns/turn-checkpoints'
import type { AppStores } from '../store/app-stores'
import { decideRecovery } from './recovery'
import { RetakeJournal, type RetakePhase, type RetakeRecord } from './retake-journal'
import { messagesBackTo } from './session-pages'
import { continueFromAttempt, type ContinueInput } from './continue-attempt'
import { forkSession, type ForkInput } from './fork-session'
import { importSession } from './import-session'
import type { SessionExport } from '../../shared/ipc-contract'
import { firstFrom } from './early-reads'

export interface RetakeHostOptions {
  journalDir: string
  /** The opencode server, reached directly (server/host-client.ts): never through the window's proxy. */
  conn(): OpencodeConnection
  /** A prompt's checkpoint and a stop's permission replies, as the proxy gives the window's. */
  turns: TurnCheckpoints
  checkpoints: CheckpointService
  stores: AppStores
  emit(payload: EventPayload<'retake.progress'>): void
  log(line: string): void
  /** Test seam: called after each phase is journaled, before the step acts (crash tests kill here). */
  afterPhase?(phase: RetakePhase): void
  /** Test seam: called after each message a switch to an attempt deletes (a throw = a crash there). */
  afterSwitchDelete?(messageID: string): void | Promise<void>
}

type Message = StoredMessage & { info: StoredMessage['info'] & { parentID?: string; providerID?: string; modelID?: string } }

export function createRetakeHost(opts: RetakeHostOptions) {
  const journal = new RetakeJournal(opts.journalDir)
  const running = new Set<string>()
  const client = (directory: string): OpencodeClient => hostClient(opts.conn(), directory)

  async function run(input: z.infer<typeof RetakeRunSchema>): Promise<RetakeOutcome> {
    const { directory, sessionID, clickedID, model } = input
    const c = client(directory)
    // Asked at once with the messages; the flow's "busy?" is answered from it (early-reads.ts).
    const status = c.session.status().then((r) => (unwrap('session.status', r) as Record<string, { type: string }>)[sessionID])
    status.catch(() => {})
    const list = (await messagesBackTo(c, sessionID, clickedID)) as Message[]
    const target = input.fromSaved ? clickedID : retakeTargetFor(list, clickedID)
    if (!target) return { status: 'failed', step: 'payload', error: 'This message has no user turn to retake', saved: false }
    const key = `${sessionID}/${target}`
    if (running.has(key)) return { status: 'failed', step: 'payload', error: 'This turn is already being retaken', saved: false }
    running.add(key)
    const saved = input.fromSaved ? opts.stores.savedRetakes(sessionID).find((r) => r.messageID === target) : undefined
    if (input.fromSaved && !saved) {
      running.delete(key)
      return { status: 'failed', step: 'payload', error: 'No saved copy of this message is left to send again', saved: false }
    }
    const answers = answersTo(list, target)
    const last = answers.at(-1)?.info
    // The attempt keeps the whole branch: the answers and every later turn with its answers.
    const at = list.findIndex((m) => m.info.id === target)
    const branch = at >= 0 ? list.slice(at + 1) : answers
    let attemptAt: number | null = null
    let record: RetakeRecord = { directory, sessionID, messageID: target, startedAt: Date.now(), phase: 'started', ...(input.rewind ? { rewind: true } : {}) }
    const phase = (p: RetakePhase, patch: Partial<RetakeRecord> = {}) => {
      record = journal.update(record, { ...patch, phase: p })
      opts.afterPhase?.(p)
    }
    const sdk = createSdkRetakeDeps(c, {
      save: async (e) => {
        opts.stores.saveRetake(e)
        // The journal starts once the payload is safe; before that nothing destructive ran.
        if (e.state === 'pending') phase('started')
      },
      drop: async (s, m) => opts.stores.dropRetake(s, m),
      recordAttempt: async (a) => {
        opts.stores.addAttempt(a)
        attemptAt = a.at
      },
      forgetAttempt: async (s, m, at) => opts.stores.forgetAttempt(s, m, at),
    })
    const files = opts.checkpoints
    const stored = list.find((m) => m.info.id === target)
    const deps: RetakeDeps = {
      ...sdk,
      abortAndWaitIdle: async (s) => {
        await opts.turns.denyPermissionsOf(directory, s)
        await sdk.abortAndWaitIdle(s)
        // Again once it stopped: a request a parallel tool call asked while the stop was on its way.
        await opts.turns.denyPermissionsOf(directory, s)
      },
      isBusy: firstFrom(
        status.then((s) => s !== undefined && s.type !== 'idle'),
        sdk.isBusy,
      ),
      // The message as read a moment ago with the list (parts included): null when the list, read
      // back to it, does not hold it (the server dropped it; "Send again" prompts afresh).
      getMessage: firstFrom(Promise.resolve(stored ? { parts: stored.parts } : null), sdk.getMessage, (s, m) => s === sessionID && m === target),
      holdKept: async (planId, overwrite, keep = []) => {
        const holdId = files.holdKept(directory, planId, overwrite, keep)
        phase('held', { holdId })
        return holdId
      },
      putBackKept: async (holdId) => files.putBackKept(holdId),
      restoreFiles: async (planId, overwrite, keep = []) => {
        phase('restoring')
        const r = await files.apply(directory, planId, { onConflict: 'restore-rest', overwrite, keep })
        phase('restored', r.restoreId ? { restoreId: r.restoreId } : {})
        // The restore's before-image is the replaced attempt's files: noted on it, so it can return.
        if (r.restoreId && attemptAt !== null) opts.stores.setAttemptRestore(sessionID, target, attemptAt, r.restoreId)
        return r
      },
      undoFiles: (restoreId) => files.undo(directory, restoreId),
      revert: async (s, m) => {
        phase('reverting')
        const out = await sdk.revert(s, m)
        phase('reverted')
        return out
      },
      prompt: async (body, o) => {
        phase('prompting')
        if (!o?.skipCheckpoint) await opts.turns.before(directory, sessionID, target)
        return sdk.prompt(body)
      },
      onStep: (step, ms) => {
        opts.emit({ sessionID, messageID: target, step })
        // Each step with its duration, for the log (what a slow retake spent its time on).
        opts.log(`[retake] ${sessionID}/${target} ${step} ${ms} ms`)
      },
    }
    try {
      const request = {
        sessionID,
        messageID: target,
        directory,
        message: list.find((m) => m.info.id === target) ?? null,
        model,
        variant: input.variant,
        // A rewind keeps no attempt: the turn itself comes back to the composer, and opencode
        // drops the reverted turns at the next prompt (the attempt would belong to no message).
        previousAnswers: input.rewind ? [] : branch,
        previousModel: last?.providerID && last.modelID ? { providerID: last.providerID, modelID: last.modelID } : undefined,
        saved,
        files: input.files,
        skipCheckpoint: input.skipCheckpoint,
        editedText: input.edit?.text,
      }
      if (input.rewind) {
        const back = await runRewind(request, deps)
        return { status: 'done', messageID: target, restore: (back.restore as never) ?? null, draft: back.parts }
      }
      const out = await runRetake(request, deps)
      return {
        status: 'done',
        messageID: target,
        ...(out.turnError ? { turnError: out.turnError } : {}),
        restore: (out.restore as never) ?? null,
        ...(attemptAt !== null ? { keptAt: attemptAt } : {}),
      }
    } catch (err) {
      if (err instanceof RetakeError) return { status: 'failed', step: err.step, error: err.message, saved: err.saved !== null }
      throw err
    } finally {
      // runRetake undid what it had done on every failure it saw; only a death leaves a record.
      journal.end(record)
      running.delete(key)
    }
  }

  /**
   * "Retake with several models": the turn retaken on each model in turn. Each run after the first
   * starts from the same files: the previous run's turn is sealed and rolled back through a plan
   * (files the user changed meanwhile are kept: conflicts are never overwritten here), and its
   * branch is kept as an attempt, so every answer can be compared and any one kept.
   */
  async function compare(input: z.infer<typeof RetakeCompareSchema>): Promise<RetakeCompareOutcome> {
    const runs: RetakeCompareOutcome['runs'] = []
    let clickedID = input.clickedID
    for (const [i, model] of input.models.entries()) {
      let files = i === 0 ? input.files : undefined
      if (i > 0) {
        await opts.checkpoints.sealSession(input.directory, input.sessionID)
        const plan = await opts.checkpoints.plan(input.directory, { backTo: { sessionID: input.sessionID, messageID: clickedID } })
        files = { planId: plan.planId, overwrite: [], keep: [] }
      }
      const outcome = await run({ ...input, clickedID, model, fromSaved: false, rewind: false, files, ...(i === 0 ? {} : { edit: undefined }) })
      runs.push({ model, outcome })
      if (outcome.status === 'failed') break
      clickedID = outcome.messageID
    }
    return { runs }
  }

  const hostPost = (directory: string) => postTo(opts.conn(), directory)

  async function fork(input: ForkInput): Promise<SessionForkOutcome> {
    try {
      return await forkSession({ client: client(input.directory), post: hostPost(input.directory), checkpoints: opts.checkpoints }, input)
    } catch (err) {
      return { status: 'failed', error: (err as Error).message }
    }
  }

  /** A session from opencode's export format, new in `directory` (import-session.ts). */
  function importExport(directory: string, data: SessionExport) {
    return importSession({ client: client(directory), post: hostPost(directory), now: Date.now }, directory, data)
  }

  /** "Continue from this attempt" (continue-attempt.ts), one per turn at a time like a retake. */
  async function continueAttempt(input: ContinueInput): Promise<AttemptContinueOutcome> {
    const key = `${input.sessionID}/${input.messageID}`
    if (running.has(key)) return { status: 'failed', error: 'This turn is being retaken or switched already' }
    running.add(key)
    try {
      return await continueFromAttempt(
        {
          client: client(input.directory),
          post: hostPost(input.directory),
          checkpoints: opts.checkpoints,
          stores: opts.stores,
          now: Date.now,
          afterDelete: opts.afterSwitchDelete,
        },
        input,
      )
    } catch (err) {
      return { status: 'failed', error: (err as Error).message }
    } finally {
      running.delete(key)
    }
  }

  /** Finishes or undoes the retakes a previous run was cut off in (called once the server is up). */
  async function recover(): Promise<string[]> {
    const done: string[] = []
    for (const rec of journal.unfinished()) {
      try {
        done.push(await recoverOne(rec))
        journal.end(rec)
      } catch (err) {
        // Left in the journal: the next start tries again; the payload stays saved meanwhile.
        opts.log(`[retake] recovery of ${rec.sessionID}/${rec.messageID} failed: ${(err as Error).message}`)
      }
    }
    return done
  }

  async function recoverOne(rec: RetakeRecord): Promise<string> {
    const c = client(rec.directory)
    const session = unwrap('session.get', await c.session.get({ sessionID: rec.sessionID })) as { revert?: { messageID?: string } }
    const r = await c.session.message({ sessionID: rec.sessionID, messageID: rec.messageID })
    const parts = r.response?.status === 404 ? null : (unwrap('session.message', r) as { parts: { id: string }[] }).parts
    const decision = decideRecovery(rec, { reverted: session.revert?.messageID === rec.messageID, parts: parts?.length ?? null })
    const savedEntry = opts.stores.savedRetakes(rec.sessionID).find((s) => s.messageID === rec.messageID)
    if (decision.kind === 'delivered') {
      if (rec.holdId) opts.checkpoints.kept.drop(rec.holdId)
      opts.stores.dropRetake(rec.sessionID, rec.messageID)
      return `${rec.sessionID}/${rec.messageID}: the prompt had reached the server`
    }
    if (decision.kind === 'forward') {
      if (rec.holdId) await putBack(rec.holdId)
      for (const p of decision.deleteParts ? (parts ?? []) : []) {
        unwrap('part.delete', await c.part.delete({ sessionID: rec.sessionID, messageID: rec.messageID, partID: p.id }))
      }
    } else {
      const restoreId = rec.restoreId ?? (await restoreMadeBy(rec))
      if (decision.undoFiles && restoreId) await opts.checkpoints.undo(rec.directory, restoreId)
      if (rec.holdId) await putBack(rec.holdId)
    }
    if (savedEntry) opts.stores.saveRetake({ ...savedEntry, state: 'failed', error: decision.note })
    return `${rec.sessionID}/${rec.messageID}: ${decision.kind}`
  }

  async function putBack(holdId: string) {
    const back = opts.checkpoints.putBackKept(holdId)
    if (back.failed.length > 0) throw new Error(`kept files could not be put back: ${back.failed.map((f) => f.path).join(', ')}`)
  }

  /** A restore cut off before its id was journaled: the engine completed it on open; find it. */
  async function restoreMadeBy(rec: RetakeRecord): Promise<string | undefined> {
    const last = await (await opts.checkpoints.store(rec.directory)).lastRestore(rec.sessionID)
    return last && last.turn.messageID === rec.messageID && last.createdAt >= rec.startedAt && !last.rolledBack ? last.restoreId : undefined
  }

  return { run, recover, continueAttempt, compare, fork, importExport }
}
