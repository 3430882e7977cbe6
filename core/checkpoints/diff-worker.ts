// Plan and change-list diffs off the host's main thread. Why: the main process also serves the
// window; a large rewrite is hundreds of ms of diff search (0.4 s for a 205 KB file with every
// third line changed), and the UI must not freeze while a plan is shown. One worker thread, started
// on first use and unref'd; it runs the source of lineDiff itself (diff.ts), so there is nothing
// to bundle or ship, exactly as the stat workers do.
import { Worker } from 'node:worker_threads'
import { diffNames, diffPrecheck, lineDiff, MAX_EDIT_LINES } from './diff'
import type { DiffResult, LineDiff } from './diff'
import { stopWorker } from './worker-stop'

/** Below this many bytes in all, a diff is made inline: it cannot take long, a message would. */
const INLINE_BYTES = 16 * 1024

// __name: tsx (bench, soak, the browser-mode host under tsx) compiles with esbuild's keepNames,
// which wraps named inner functions in a helper the worker does not have; naming is all it does.
const SOURCE = `
const { parentPort } = require('node:worker_threads')
const __name = (fn) => fn
const lineDiff = ${lineDiff.toString()}
const dec = new TextDecoder()
parentPort.on('message', (m) => {
  let out
  try {
    out = lineDiff(m.a ? dec.decode(m.a) : '', m.b ? dec.decode(m.b) : '', m.fromName, m.toName, m.maxEdit, Infinity)
  } catch (err) {
    out = { error: String(err && err.stack || err) }
  }
  parentPort.postMessage({ id: m.id, out })
})
`

type Reply = LineDiff & { error?: string }
let worker: Worker | null = null
let seq = 0
const waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>()

function start(): Worker {
  if (worker) return worker
  const w = new Worker(SOURCE, { eval: true })
  // An idle worker must not keep a CLI or test process alive.
  w.unref()
  w.on('message', (m: { id: number; out: Reply }) => {
    const wait = waiting.get(m.id)
    waiting.delete(m.id)
    wait?.resolve(m.out)
  })
  const fail = (err: Error): void => {
    // The next diff starts a fresh worker; those in flight get counts only (see diffOffThread).
    if (worker === w) worker = null
    for (const [id, wait] of waiting) {
      waiting.delete(id)
      wait.reject(err)
    }
  }
  w.on('error', fail)
  w.on('exit', (code) => fail(new Error(`diff worker exited with code ${code}`)))
  return (worker = w)
}

/** A private copy whose buffer can be transferred (a Buffer may be a view of a shared pool). */
const own = (b: Uint8Array | null): Uint8Array | null => (b ? new Uint8Array(b) : null)

/**
 * Diff `from` → `to` (null: absent file) without blocking this thread on a large search. If the
 * worker cannot run, the result has line counts and no text: a plan is never held up by a preview.
 */
export async function diffOffThread(from: Uint8Array | null, to: Uint8Array | null, label: string): Promise<DiffResult> {
  const count = (b: Uint8Array | null) => (): number => {
    if (!b || b.length === 0) return 0
    let n = 0
    for (let i = 0; i < b.length; i++) if (b[i] === 10) n++
    return b[b.length - 1] === 10 ? n : n + 1
  }
  const early = diffPrecheck(from, to, count(from), count(to))
  if (early) return early
  const [fromName, toName] = diffNames(from, to, label)
  const done = (d: LineDiff): DiffResult => ({ binary: false, added: d.added, removed: d.removed, ...(d.text !== undefined ? { text: d.text } : {}) })
  if ((from?.length ?? 0) + (to?.length ?? 0) <= INLINE_BYTES) {
    const dec = (b: Uint8Array | null) => (b ? Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8') : '')
    return done(lineDiff(dec(from), dec(to), fromName, toName, MAX_EDIT_LINES, Infinity))
  }
  const a = own(from)
  const b = own(to)
  try {
    const w = start()
    const id = ++seq
    const reply = await new Promise<Reply>((resolve, reject) => {
      waiting.set(id, { resolve, reject })
      // Held while a diff is in flight, so a process awaiting it does not exit under it.
      w.ref()
      w.postMessage(
        { id, a, b, fromName, toName, maxEdit: MAX_EDIT_LINES },
        [a, b].filter((x): x is Uint8Array => x !== null).map((x) => x.buffer as ArrayBuffer),
      )
    }).finally(() => {
      if (waiting.size === 0) worker?.unref()
    })
    if (reply.error) throw new Error(reply.error)
    return done(reply)
  } catch {
    return { binary: false, added: count(to)(), removed: count(from)() }
  }
}

/** Stop the worker (tests; a process exiting need not: it is unref'd). */
export async function stopDiffWorker(): Promise<void> {
  const w = worker
  worker = null
  if (w) await stopWorker(w)
}
