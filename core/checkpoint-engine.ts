/**
 * The host's side of the checkpoint engine's thread (core/checkpoints/worker.ts): starts it on
 * first use, calls the stores opened there by message, answers what it asks (a turn's tool use) and
 * passes capture progress on. Every message is parsed against worker-contract.ts; an engine error
 * comes back as the same `CheckpointError` code (ENOSPC, ELOCKED…). Why a thread: a first capture
 * of a large tree walks and hashes for seconds, and the host must keep answering the window
 * meanwhile. If the thread dies, what was running fails with a clear ECLOSED error and the next
 * call starts a fresh thread, whose open completes a restore the death interrupted (recovery).
 */
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { CheckpointError, FromWorker, METHODS, releaseOwnerLeftHere, ToWorker } from './checkpoints'
import type {
  ApplyChoices,
  ApplyResult,
  CaptureResult,
  InternalStore,
  MethodArgs,
  MethodName,
  Plan,
  PlanTarget,
  ProgressEvent,
  ToolUseLookup,
  TurnKey,
  TurnKeyInput,
  WireError,
  WireOpenOptions,
} from './checkpoints'

type Remote<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never
type Passed = 'recovered' | 'recoveredRestores' | 'warnings' | 'capture' | 'seal' | 'plan' | 'apply'

/** A store open in the engine's thread: the engine's store API, every call asynchronous. */
export type StoreClient = { [K in Exclude<keyof InternalStore, Passed>]: Remote<InternalStore[K]> } & Pick<InternalStore, 'recovered' | 'recoveredRestores' | 'warnings'> & {
    readonly storeDir: string
    capture(key: TurnKeyInput, opts?: CaptureCall): Promise<CaptureResult>
    seal(key: TurnKeyInput, opts?: CaptureCall): Promise<CaptureResult>
    plan(target: PlanTarget, opts?: { toolUse?: (turns: TurnKey[]) => Promise<ToolUseLookup>; foreign?: MethodArgs<'plan'>[1]['foreign'] }): Promise<Plan>
    apply(plan: Plan, choices?: ApplyChoices): Promise<ApplyResult>
  }
export interface CaptureCall {
  waitMs?: number
  onProgress?: (p: ProgressEvent) => void
}

export interface CheckpointEngineOptions {
  log?(line: string): void
  /** The thread died: the stores it had open are gone (the next open starts a fresh one). */
  onLost?(why: string): void
}

interface Pending {
  method: MethodName
  resolve(value: unknown): void
  reject(err: Error): void
  onProgress?: (p: ProgressEvent) => void
  toolUse?: (turns: TurnKey[]) => Promise<ToolUseLookup>
}

export class CheckpointEngine {
  private worker: Worker | null = null
  private readonly pending = new Map<number, Pending>()
  private nextId = 0
  /** Bumped when a thread dies: a store opened in an earlier one is gone. */
  private generation = 0
  /** The stores open in the running thread, for the owner files its death would leave behind. */
  private readonly open = new Set<string>()

  constructor(private readonly opts: CheckpointEngineOptions = {}) {}

  /** The running thread (null before the first use and after it died): for tests and diagnostics. */
  get thread(): Worker | null {
    return this.worker
  }

  async openStore(options: Omit<WireOpenOptions, 'pinned'>, pinned?: () => Iterable<string>): Promise<StoreClient> {
    const gen = this.threadGeneration()
    const pins = () => (pinned ? [...pinned()] : [])
    // Counted from the moment it is asked for: a thread that dies mid-open may have claimed it.
    this.open.add(options.storeDir)
    const opened = (await this.call(gen, options.storeDir, 'open', [{ ...options, pinned: pinned !== undefined }], pins).catch((err: unknown) => {
      // Refused by a live thread (owned elsewhere, unreadable): not ours to let go of later.
      if (gen === this.generation) this.open.delete(options.storeDir)
      throw err
    })) as Pick<StoreClient, 'recovered' | 'recoveredRestores' | 'warnings'>
    const call = (method: MethodName, args: unknown[], extra?: Partial<Pending>) => this.call(gen, options.storeDir, method, args, pins, extra)
    const plain = Object.fromEntries(
      (Object.keys(METHODS) as MethodName[])
        .filter((m) => !['open', 'capture', 'seal', 'plan', 'apply', 'close', 'limitSpace'].includes(m))
        .map((m) => [m, (...args: unknown[]) => call(m, args)]),
    )
    const capture =
      (method: 'capture' | 'seal') =>
      (key: TurnKeyInput, o: CaptureCall = {}) =>
        call(method, [key, { ...(o.waitMs !== undefined ? { waitMs: o.waitMs } : {}), progress: o.onProgress !== undefined }], { onProgress: o.onProgress })
    return {
      ...(plain as Omit<StoreClient, Passed | 'storeDir' | 'close'>),
      ...opened,
      storeDir: options.storeDir,
      capture: capture('capture'),
      seal: capture('seal'),
      plan: (target, o = {}) => call('plan', [target, { toolUse: o.toolUse !== undefined, ...(o.foreign ? { foreign: o.foreign } : {}) }], { toolUse: o.toolUse }),
      // The plan goes back only as its id: the engine acts on its own copy (and a long plan's
      // actions need not be copied across again).
      apply: (plan, choices) => call('apply', [{ planId: plan.planId }, choices]),
      close: async () => {
        if (gen !== this.generation) return // its thread is gone, and the store with it
        await call('close', [])
        this.open.delete(options.storeDir)
      },
    } as StoreClient
  }

  /**
   * Test seam (core/checkpoints/store/store-space.ts): from now on the disk of the engine's stores takes
   * only `bytes` more, then fails with ENOSPC as a full disk would; null lifts the limit.
   */
  async limitStoreSpace(bytes: number | null): Promise<void> {
    await this.call(this.threadGeneration(), '', 'limitSpace', [bytes], () => [])
  }

  /** Ends the thread (after the stores were closed). */
  async stop(): Promise<void> {
    const w = this.worker
    this.worker = null
    this.generation += 1
    this.open.clear()
    const err = new CheckpointError('ECLOSED', 'the checkpoint engine was stopped')
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(err)
    if (w) await w.terminate()
  }

  /** The thread's generation, starting one if none runs. */
  private threadGeneration(): number {
    if (!this.worker) this.start()
    return this.generation
  }

  private start(): void {
    const { file, workerData } = workerEntry()
    const w = new Worker(file, { workerData, stdout: false, stderr: false })
    w.unref()
    w.on('message', (raw: unknown) => this.receive(raw))
    w.on('error', (err) => this.lost(w, `error: ${err.message}`))
    w.on('exit', (code) => this.lost(w, `exit code ${code}`))
    this.worker = w
  }

  private call(gen: number, store: string, method: MethodName, args: unknown[], pins: () => string[], extra: Partial<Pending> = {}): Promise<unknown> {
    if (gen !== this.generation || !this.worker) {
      return Promise.reject(new CheckpointError('ECLOSED', 'the checkpoint engine restarted since this store was opened; open it again'))
    }
    const id = this.nextId++
    const w = this.worker
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject, ...extra })
      if (this.pending.size === 1) w.ref() // a call runs: the process waits for it
      try {
        w.postMessage(ToWorker.parse({ type: 'call', id, store, method, args, pinned: pins() }))
      } catch (err) {
        this.settle(id)
        reject(err as Error)
      }
    })
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id)
    this.pending.delete(id)
    if (this.pending.size === 0) this.worker?.unref()
    return p
  }

  private receive(raw: unknown): void {
    const parsed = FromWorker.safeParse(raw)
    if (!parsed.success) {
      this.opts.log?.(`[checkpoints] unreadable message from the engine: ${parsed.error.message}`)
      return
    }
    const msg = parsed.data
    if (msg.type === 'progress') {
      this.pending.get(msg.id)?.onProgress?.(msg.event)
    } else if (msg.type === 'request') {
      void this.answerToolUse(msg.id, msg.call, msg.turns)
    } else {
      const p = this.settle(msg.id)
      if (!p) return
      if (!msg.ok) return p.reject(fromWire(msg.error))
      const value = METHODS[p.method].result.safeParse(msg.value)
      if (value.success) p.resolve(msg.value)
      else p.reject(new Error(`the checkpoint engine's answer to ${p.method} is malformed: ${value.error.message}`))
    }
  }

  private async answerToolUse(id: number, call: number, turns: TurnKey[]): Promise<void> {
    const ask = this.pending.get(call)?.toolUse
    let answer: ToWorker
    try {
      const lookup = ask ? await ask(turns) : () => undefined
      const uses = turns.flatMap((turn) => {
        const u = lookup(turn)
        return u ? [{ turn, paths: [...u.paths], opaque: u.opaque }] : []
      })
      answer = { type: 'answer', id, ok: true, uses }
    } catch (err) {
      answer = { type: 'answer', id, ok: false, message: (err as Error).message ?? String(err) }
    }
    this.worker?.postMessage(ToWorker.parse(answer))
  }

  private lost(w: Worker, why: string): void {
    if (w !== this.worker) return // stopped on purpose, or already reported
    this.worker = null
    this.generation += 1
    // A dead thread's owner files name this process, which still runs: the fresh thread's open
    // would take them for a live owner. Nothing else in this process opens these stores.
    for (const dir of this.open) releaseOwnerLeftHere(dir)
    this.open.clear()
    const err = new CheckpointError('ECLOSED', `The checkpoint engine stopped (${why}). It restarts on the next use; a restore it was running is completed then.`)
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(err)
    this.opts.log?.(`[checkpoints] the engine's thread stopped (${why}); a fresh one starts on the next use`)
    this.opts.onLost?.(why)
  }
}

function fromWire(e: WireError): Error {
  const codes: readonly string[] = ['ELOCKED', 'EUNKNOWN_TURN', 'EBAD_KEY', 'EBAD_PATH', 'ECLOSED', 'EFORMAT', 'EOWNED', 'ENOSPC']
  if (e.name === 'CheckpointError' && e.code && codes.includes(e.code)) return new CheckpointError(e.code as CheckpointError['code'], e.message)
  // A system error keeps its code (isOutOfSpace looks at ENOSPC / EDQUOT).
  return Object.assign(new Error(e.message), { name: e.name }, e.code ? { code: e.code } : {})
}

/**
 * The thread's entry: the bundle's sibling in the built app (scripts/build-electron.mjs); from the
 * sources (browser mode under tsx, vitest) the TypeScript entry, through a loader that registers
 * tsx in the thread (scripts/ts-worker.mjs).
 */
function workerEntry(): { file: string; workerData?: { tsEntry: string } } {
  const here = import.meta.url
  if (!/\.[cm]?ts$/.test(new URL(here).pathname)) return { file: fileURLToPath(new URL('./checkpoint-worker.cjs', here)) }
  return { file: fileURLToPath(new URL('../scripts/ts-worker.mjs', here)), workerData: { tsEntry: new URL('./checkpoints/worker.ts', here).href } }
}
