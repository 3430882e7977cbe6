/**
 * The checkpoint engine's own thread. The host (core/checkpoint-engine.ts) starts it and calls the
 * stores opened here by message (worker-contract.ts); the engine runs as it would in-process, so
 * the host's event loop never waits on a walk, a hash or a diff. Every message is parsed before it
 * is acted on; an error goes back with its CheckpointError code.
 */
import path from 'node:path'
import { parentPort } from 'node:worker_threads'
import { openCheckpointStore, type InternalStore } from './index'
import { gateStore, spaceLeft, type SpaceGate } from './store/store-space'
import { FromWorker, METHODS, ToWorker, type MethodArgs, type MethodName, type WireError, type WireToolUse } from './worker-contract'
import type { ProgressEvent, ToolUseLookup, TurnKey, TurnToolUse } from './types'

const port = parentPort
if (!port) throw new Error('core/checkpoints/worker.ts runs as a worker thread (core/checkpoint-engine.ts starts it)')

const stores = new Map<string, InternalStore>()
/** The host's limit on the stores' disk space (`limitSpace`, for its full-disk test), or none. */
let spaceLimit: SpaceGate | null = null
/** The restores the host pins, as of its latest call (it sends them with every call). */
let pinned: string[] = []
const waiting = new Map<number, { resolve(uses: WireToolUse[]): void; reject(err: Error): void }>()
let nextRequest = 0

function send(msg: FromWorker): void {
  port!.postMessage(FromWorker.parse(msg))
}

function wireError(err: unknown): WireError {
  const e = err as { name?: unknown; message?: unknown; code?: unknown } | null
  return {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(err),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
  }
}

/** Asks the host what the turns' tools wrote (for the plan of call `call`). */
function askToolUse(call: number, turns: TurnKey[]): Promise<ToolUseLookup> {
  const id = nextRequest++
  return new Promise<WireToolUse[]>((resolve, reject) => {
    waiting.set(id, { resolve, reject })
    send({ type: 'request', id, call, turns })
  }).then((uses) => {
    const byTurn = new Map<string, TurnToolUse>(uses.map((u) => [`${u.turn.sessionID}/${u.turn.messageID}`, { paths: new Set(u.paths), opaque: u.opaque }]))
    return (t: TurnKey) => byTurn.get(`${t.sessionID}/${t.messageID}`)
  })
}

function storeAt(dir: string): InternalStore {
  const s = stores.get(dir)
  if (!s) throw Object.assign(new Error(`checkpoint store ${dir} is not open in the engine`), { name: 'CheckpointError', code: 'ECLOSED' })
  return s
}

// Each case narrows `args` to its method's tuple (parsed against METHODS before the call).
async function run(id: number, dir: string, method: MethodName, args: unknown): Promise<unknown> {
  switch (method) {
    case 'open': {
      const [o] = args as MethodArgs<'open'>
      const { pinned: keepsPins, ...opts } = o
      if (stores.has(o.storeDir)) throw Object.assign(new Error(`checkpoint store ${o.storeDir} is already open in the engine`), { name: 'CheckpointError', code: 'EOWNED' })
      const store = await openCheckpointStore({ ...opts, ...(keepsPins ? { pinnedRestores: () => pinned } : {}), ...(spaceLimit ? { spaceGate: spaceLimit } : {}) })
      stores.set(o.storeDir, store)
      return { recovered: store.recovered, recoveredRestores: store.recoveredRestores, warnings: store.warnings }
    }
    case 'capture':
    case 'seal': {
      const [key, o] = args as MethodArgs<'capture'>
      const onProgress = o.progress ? (event: ProgressEvent) => send({ type: 'progress', id, event }) : undefined
      return storeAt(dir)[method as 'capture'](key, { waitMs: o.waitMs, onProgress })
    }
    case 'plan': {
      const [target, o] = args as MethodArgs<'plan'>
      return storeAt(dir).plan(target, { foreign: o.foreign, ...(o.toolUse ? { toolUse: (turns: TurnKey[]) => askToolUse(id, turns) } : {}) })
    }
    case 'apply': {
      const [plan, choices] = args as MethodArgs<'apply'>
      // Only its id: the engine acts on its own copy, found by planId (never on entries sent to it).
      return storeAt(dir).apply(plan as Parameters<InternalStore['apply']>[0], choices)
    }
    case 'limitSpace': {
      const [bytes] = args as MethodArgs<'limitSpace'>
      // The host's test seam for a full disk: every store of this thread, and those opened later.
      spaceLimit = bytes === null ? null : spaceLeft(bytes)
      for (const d of stores.keys()) gateStore(path.resolve(d), spaceLimit)
      return undefined
    }
    case 'close': {
      const s = stores.get(dir)
      stores.delete(dir)
      await s?.close()
      return undefined
    }
    default: {
      const s = storeAt(dir) as unknown as Record<string, (...xs: unknown[]) => unknown>
      return s[method]!(...(args as unknown[]))
    }
  }
}

port.on('message', (raw: unknown) => {
  const parsed = ToWorker.safeParse(raw)
  if (!parsed.success) {
    // Unreadable: answer the call it claims to be, if any, so the host does not wait forever.
    const id = (raw as { id?: unknown } | null)?.id
    if (typeof id === 'number') send({ type: 'result', id, ok: false, error: { name: 'Error', message: `bad message to the checkpoint engine: ${parsed.error.message}` } })
    return
  }
  const msg = parsed.data
  if (msg.type === 'answer') {
    const w = waiting.get(msg.id)
    waiting.delete(msg.id)
    if (msg.ok) w?.resolve(msg.uses)
    else w?.reject(new Error(msg.message))
    return
  }
  pinned = msg.pinned
  const spec = METHODS[msg.method]
  const args = spec.args.safeParse(msg.args)
  if (!args.success) {
    send({ type: 'result', id: msg.id, ok: false, error: { name: 'Error', message: `bad arguments for ${msg.method}: ${args.error.message}` } })
    return
  }
  const id = msg.id
  const fail = (err: unknown) => send({ type: 'result', id, ok: false, error: wireError(err) })
  run(id, msg.store, msg.method, args.data).then((value) => {
    // A result that cannot cross (it would not clone) is an error the host hears of, not silence.
    try {
      send({ type: 'result', id, ok: true, value })
    } catch (err) {
      fail(err)
    }
  }, fail)
})
