/**
 * Checkpoints for the app: one store per project folder (in the data dir), with the user's extra
 * folders as further roots. Captures before every prompt (called by the proxy), seals when the
 * session goes idle (called by the turn watcher), and keeps plans on this side of the IPC boundary:
 * the renderer refers to a plan by id and sends only its choices, so it cannot make the main process
 * write something it never planned.
 */
import { createHash } from 'node:crypto'
import { existsSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import type { Settings } from '../shared/ipc-contract'
import { CheckpointEngine, type StoreClient } from './checkpoint-engine'
import { isOutOfSpace, outOfSpaceError, parseTurnKey, projectRegistryDir, trimPlans } from './checkpoints'
import { KeptFiles, type PutBackResult } from './kept-files'
import type { ApplyChoices, ApplyResult, CaptureResult, ForeignTurn, Plan, PlanTarget, ProgressEvent, ToolUseLookup, TurnKey } from './checkpoints'

export interface CheckpointServiceOptions {
  dataDir: string
  settings(): Settings
  /**
   * Whether opencode is running a turn of the session now (null: cannot tell). A turn whose end was
   * never seen — Retake or opencode stopped during it — is sealed from the disk when it is not.
   */
  sessionBusy?(directory: string, sessionID: string): Promise<boolean | null>
  /**
   * What the turns' tools wrote (opencode's stored tool calls), so a plan can tell a turn's own
   * changes from another session's or the user's. Absent or failing: every change in a turn's
   * window counts as the turn's, except what overlapping turns make uncertain.
   */
  toolUse?(directory: string, turns: TurnKey[]): Promise<ToolUseLookup>
  /** The project folders Retake knows (recent projects): their stores may share an extra folder with this one. */
  projects?(): string[]
  onProgress?(info: { directory: string; sessionID: string; messageID: string } & Omit<ProgressEvent, 'phase'> & { phase: ProgressEvent['phase'] | 'done' }): void
  /** A session's open turns were sealed (their changes are known from now on). */
  onSealed?(info: { directory: string; sessionID: string }): void
  log?(line: string): void
  /** Restores kept through every clean-up: those the attempts point to (their files). */
  pinnedRestores?: () => Iterable<string>
}

const PLAN_TTL_MS = 30 * 60 * 1000

export class CheckpointService {
  /** The engine's own thread: the host never waits on its walks, hashes and diffs. */
  readonly engine: CheckpointEngine
  private stores = new Map<string, Promise<StoreClient>>()
  private plans = new Map<string, { directory: string; plan: Plan; at: number }>()
  /** Seals running, by directory and session: a plan or a list asked meanwhile waits for them. */
  private sealing = new Map<string, Promise<number>>()
  /** Files the user keeps through a retake, persisted so a crash mid-retake cannot lose them. */
  readonly kept: KeptFiles
  /** Stores being closed by reset(): a store is owned by one engine at a time, so reopening waits. */
  private closing: Promise<unknown> = Promise.resolve()

  constructor(private readonly opts: CheckpointServiceOptions) {
    this.kept = new KeptFiles(join(opts.dataDir, 'retakes', 'held'))
    this.engine = new CheckpointEngine({
      log: opts.log,
      // Its stores and plans went with it: the next use opens them in a fresh thread (recovery runs).
      onLost: () => {
        this.stores.clear()
        this.plans.clear()
      },
    })
  }

  storeDir(directory: string): string {
    return join(this.opts.dataDir, 'checkpoints', createHash('sha256').update(directory).digest('hex').slice(0, 16))
  }

  store(directory: string): Promise<StoreClient> {
    let s = this.stores.get(directory)
    if (!s) {
      const settings = this.opts.settings()
      const excludes = settings.excludes
      s = this.closing.then(() =>
        this.engine.openStore(
          {
            storeDir: this.storeDir(directory),
            roots: [{ path: directory, excludes }, ...settings.extraFolders.filter((f) => f.path !== directory).map((f) => ({ path: f.path, shared: f.shared, excludes }))],
            // Another Retake instance (another data dir) on this project: its turns are weighed too.
            projectRegistry: projectRegistryDir(),
          },
          this.opts.pinnedRestores,
        ),
      )
      s.then(
        (store) => store.recovered.forEach((m) => this.opts.log?.(`[checkpoints] recovered: ${m}`)),
        () => this.stores.delete(directory),
      )
      this.stores.set(directory, s)
    }
    return s
  }

  /** Settings changed (folders, excludes): stores reopen with the new roots on next use. */
  async reset(): Promise<void> {
    const open = [...this.stores.values()]
    this.stores.clear()
    this.plans.clear()
    this.closing = Promise.all([this.closing, ...open.map((p) => p.then((s) => s.close()).catch(() => {}))])
    await this.closing
  }

  async capture(directory: string, sessionID: string, messageID: string): Promise<CaptureResult> {
    // A store that cannot even be created (its first files do not fit) is a full disk too.
    const store = await this.store(directory).catch((err: unknown) => Promise.reject(isOutOfSpace(err) ? outOfSpaceError(this.storeDir(directory), err) : err))
    let last: ProgressEvent | null = null
    try {
      return await store.capture(
        { sessionID, messageID },
        {
          waitMs: 30_000,
          onProgress: (p) => {
            last = p
            this.opts.onProgress?.({ directory, sessionID, messageID, ...p })
          },
        },
      )
    } finally {
      // Only captures that reported progress need to say they are over.
      if (last) this.opts.onProgress?.({ directory, sessionID, messageID, ...(last as ProgressEvent), phase: 'done' })
    }
  }

  /** Seals every open turn of the session (a turn ends when the session goes idle). */
  sealSession(directory: string, sessionID: string): Promise<number> {
    const key = `${directory}\n${sessionID}`
    const run = this.sealOpen(directory, sessionID).finally(() => {
      if (this.sealing.get(key) === run) this.sealing.delete(key)
    })
    this.sealing.set(key, run)
    return run
  }

  /** Waits for a seal of the session that is running (its turns' changes are known after it). */
  async sealed(directory: string, sessionID: string): Promise<void> {
    await this.sealing.get(`${directory}\n${sessionID}`)?.catch(() => undefined)
  }

  private async sealOpen(directory: string, sessionID: string): Promise<number> {
    const store = await this.store(directory)
    let sealed = 0
    for (const t of await store.listTurns(sessionID)) {
      if (t.status !== 'open') continue
      await store.seal(t.turnKey, { waitMs: 30_000 })
      sealed += 1
    }
    if (sealed) this.opts.onSealed?.({ directory, sessionID })
    return sealed
  }

  async plan(directory: string, target: PlanTarget): Promise<Plan> {
    const store = await this.store(directory)
    const { sessionID } = parseTurnKey('backTo' in target ? target.backTo : target.turnKey)
    const late = await this.sealUnseenEnds(directory, sessionID)
    const foreign = await this.foreignTurns(directory)
    const plan = await store.plan(target, { toolUse: this.toolUseAcross(directory, foreign), foreign })
    if (late > 0) {
      const which = late === 1 ? 'one turn' : `${late} turns`
      plan.warnings.push(`The end of ${which} of this session was never seen (Retake or opencode stopped during it): sealed now from the files as they are.`)
    }
    const now = Date.now()
    for (const [id, p] of this.plans) if (now - p.at > PLAN_TTL_MS) this.plans.delete(id)
    this.plans.set(plan.planId, { directory, plan, at: now })
    // Bounded by size too: an install's plan lists thousands of paths (see plan-budget.ts).
    trimPlans(this.plans)
    return plan
  }

  /** Tool use of this project's turns and of other projects' (each asked in its own folder). */
  private toolUseAcross(directory: string, foreign: ForeignProjectTurn[]): ((turns: TurnKey[]) => Promise<ToolUseLookup>) | undefined {
    const toolUse = this.opts.toolUse
    if (!toolUse) return undefined
    const dirOf = new Map(foreign.map((f) => [`${f.turn.sessionID}/${f.turn.messageID}`, f.directory]))
    return async (turns) => {
      const byDir = new Map<string, TurnKey[]>()
      for (const t of turns) {
        const d = dirOf.get(`${t.sessionID}/${t.messageID}`) ?? directory
        byDir.set(d, [...(byDir.get(d) ?? []), t])
      }
      const lookups = await Promise.all([...byDir].map(([d, ts]) => toolUse(d, ts)))
      return (t) => lookups.map((l) => l(t)).find((u) => u !== undefined)
    }
  }

  /**
   * Turns of other projects' stores that checkpoint a folder this one does too (an extra folder,
   * or one project inside another): a retake here must not take their work for its own.
   */
  private async foreignTurns(directory: string): Promise<ForeignProjectTurn[]> {
    const mine = this.rollbackPaths(directory)
    const others = new Set([...(this.opts.projects?.() ?? []), ...this.stores.keys()])
    others.delete(directory)
    const out: ForeignProjectTurn[] = []
    for (const d of others) {
      const paths = sharedPaths(mine, this.rollbackPaths(d))
      if (paths.length === 0 || !existsSync(this.storeDir(d))) continue
      let store: StoreClient
      try {
        store = await this.store(d)
      } catch {
        continue // owned elsewhere or unreadable: nothing to weigh (reported when that project opens)
      }
      for (const t of await store.listTurns()) {
        if (t.status !== 'restored') out.push({ turn: t.turnKey, createdAt: t.createdAt, sealedAt: t.sealedAt, paths, directory: d })
      }
    }
    return out
  }

  /** The real paths a project's store rolls back: the project and the extra folders that are not shared. */
  private rollbackPaths(directory: string): string[] {
    const paths = [
      directory,
      ...this.opts
        .settings()
        .extraFolders.filter((f) => !f.shared)
        .map((f) => f.path),
    ]
    return paths.flatMap((p) => {
      try {
        return [realpathSync(p)]
      } catch {
        return []
      }
    })
  }

  /** Open turns of an idle session ended unseen (a crash, a killed server): seal them now. */
  private async sealUnseenEnds(directory: string, sessionID: string): Promise<number> {
    // A seal already running (the session just went idle) is not an end unseen: wait for it.
    await this.sealed(directory, sessionID)
    const store = await this.store(directory)
    if (!(await store.listTurns(sessionID)).some((t) => t.status === 'open')) return 0
    if ((await this.opts.sessionBusy?.(directory, sessionID)) !== false) return 0
    return this.sealSession(directory, sessionID)
  }

  async apply(directory: string, planId: string, choices: ApplyChoices): Promise<ApplyResult> {
    const entry = this.plans.get(planId)
    if (!entry || entry.directory !== directory) throw new Error('That restore plan is no longer current; open the restore again')
    const store = await this.store(directory)
    const result = await store.apply(entry.plan, choices)
    if (result.status !== 'cancelled') this.plans.delete(planId)
    return result
  }

  /**
   * Reads aside the conflicting files of a plan that the user keeps (not chosen for overwrite), so
   * they can be put back after the opencode server's own revert touched them.
   */
  holdKept(directory: string, planId: string, overwrite: string[], keepIds: string[] = []): string {
    const entry = this.plans.get(planId)
    if (!entry || entry.directory !== directory) throw new Error('That restore plan is no longer current; open the restore again')
    const chosen = new Set(overwrite)
    const kept = new Set(keepIds)
    const keep = entry.plan.actions
      .filter((a) => (kept.has(a.id) ? a.kind !== 'nothing' && a.kind !== 'not-checkpointed' : a.kind === 'conflict' && !chosen.has(a.id)))
      .map((a) => ({ root: a.root, path: a.path }))
    return this.kept.hold(keep)
  }

  putBackKept(holdId: string): PutBackResult {
    return this.kept.putBack(holdId)
  }

  /** The turn record an earlier attempt of this turn had becomes current again (attempt-turns.ts). */
  async bringBackAttemptTurn(directory: string, turn: { sessionID: string; messageID: string }, restoreId: string): Promise<boolean> {
    return (await this.store(directory)).bringBackAttemptTurn(turn, restoreId)
  }

  async undo(directory: string, restoreId: string, choices: ApplyChoices = { onConflict: 'restore-rest' }): Promise<ApplyResult> {
    const store = await this.store(directory)
    return store.undo(restoreId, choices)
  }

  async close(): Promise<void> {
    await this.reset()
    await this.engine.stop()
  }
}

type ForeignProjectTurn = ForeignTurn & { directory: string }

/** Where two sets of folders overlap: equal folders, or the deeper of two nested ones. */
export function sharedPaths(a: string[], b: string[]): string[] {
  const out = new Set<string>()
  for (const x of a) {
    for (const y of b) {
      if (x === y || y.startsWith(x + '/')) out.add(y)
      else if (x.startsWith(y + '/')) out.add(x)
    }
  }
  return [...out]
}
