// A large restore's deletes are unlinked on the hash worker's thread while the next ones are
// checked (delete-pool.ts). What a user would notice if it went wrong: a file left behind, a file
// the user changed deleted after all, or a kept file reported against the wrong path.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DeletePool } from '../../core/checkpoints/delete-pool'
import { acquireHashWorker, GONE, HashWorker, releaseHashWorker, UNPROVEN } from '../../core/checkpoints/hash-worker'
import type { StatProof } from '../../core/checkpoints/stat-proof'
import { clockPast, runChild, workspace } from './helpers'

const made: string[] = []
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** `n` files in a fresh folder; those numbered in `missing` are never made. */
function files(n: number, missing = new Set<number>()): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-pool-'))
  made.push(dir)
  return Array.from({ length: n }, (_, i) => {
    const f = path.join(dir, `f${i}.js`)
    if (!missing.has(i)) fs.writeFileSync(f, `file ${i}`)
    return f
  })
}

/** A turn that installed `n` files in `folders` packages under `installed/`, sealed, and the plan of its restore. */
async function installTurn(n: number, folders: number, before: (w: Awaited<ReturnType<typeof workspace>>) => void = () => {}) {
  const w = await workspace({ hashWorker: true })
  before(w)
  await w.store.capture('s/m1')
  for (let i = 0; i < n; i++) w.write(`installed/p${i % folders}/f${i}.js`, `f${i}`)
  await w.store.seal('s/m1')
  return { w, plan: await w.store.plan({ turnKey: 's/m1' }) }
}

/** What the pool's worker must see in a file's lstat to unlink it: the fields of `st` now. */
function proofOf(st: StatProof): StatProof {
  return { mode: st.mode & 0o7777, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino }
}

/**
 * Adds every path, to be unlinked if it is still the file its lstat shows now (a missing one: as a
 * file that was there); each one's outcome lands in `outcomes` (an error code, or null).
 */
function unlinkAll(pool: DeletePool, paths: string[], outcomes: (string | null)[], from = 0): void {
  for (const [i, p] of paths.entries()) {
    const proof = proofOf(fs.lstatSync(p, { throwIfNoEntry: false }) ?? { mode: 0o100644, size: 1, mtimeMs: 1, ctimeMs: 1, ino: 1 })
    pool.add(p, proof, (err) => void (outcomes[from + i] = err ? (err.code ?? err.message) : null))
  }
}

/**
 * Holds the process's hash worker (the stores' one) on a FIFO: the worker's read of it blocks, so
 * nothing handed to it after this runs until `release()`.
 */
function holdWorker(): { release: () => void; done: () => Promise<void> } {
  const fifo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'retake-pool-')), 'hold')
  made.push(path.dirname(fifo))
  execFileSync('mkfifo', [fifo])
  const worker = acquireHashWorker()
  const held = worker.run(fifo, null)
  return {
    release: () => fs.writeFileSync(fifo, 'go'),
    done: async () => {
      await held
      await releaseHashWorker(worker)
    },
  }
}

/** Lets the worker's every claim through a gate (hash-worker.ts unlinkAll). */
function open(gate: Int32Array, claims = 2 ** 30): void {
  Atomics.store(gate, 0, claims)
  Atomics.notify(gate, 0)
}

/**
 * Hands `n` files (one batch per 64) to a pool whose worker is held at its first claim, and counts
 * each file's outcomes. `onSettle(i)` runs as file i settles, on the drain's thread.
 */
async function heldPool(worker: HashWorker, n: number, onSettle: (i: number, gate: Int32Array) => void) {
  const paths = files(n)
  clockPast(path.dirname(paths[0]!), fs.lstatSync(paths[n - 1]!).ctimeMs)
  const gate = new Int32Array(new SharedArrayBuffer(8))
  const pool = new DeletePool(worker, gate)
  const settled: number[] = Array.from({ length: n }, () => 0)
  const errors: string[] = []
  for (const [i, p] of paths.entries()) {
    pool.add(p, proofOf(fs.lstatSync(p)), (err) => {
      settled[i]!++
      if (err) errors.push(`${i}:${err.code}`)
      onSettle(i, gate)
    })
  }
  await Atomics.waitAsync(gate, 1, 0).value
  return { paths, gate, pool, settled, errors }
}

/** On the drain's thread: lets the worker's first `n` claims through, and waits until it has made the next. */
function letClaim(gate: Int32Array, n: number): void {
  open(gate, n)
  for (let c; (c = Atomics.load(gate, 1)) <= n;) Atomics.wait(gate, 1, c)
}

describe('the delete pool', () => {
  it('unlinks every file its lstat proves, and reports each one it did not against its own path', async () => {
    const worker = new HashWorker()
    try {
      const missing = new Set([3, 64, 65, 300])
      const paths = files(333, missing)
      // A ctime is a proof only once the clock is past it (stat-proof.ts): as for a capture's files.
      clockPast(path.dirname(paths[0]!), fs.lstatSync(paths[332]!).ctimeMs)
      const outcomes: (string | null)[] = []
      const pool = new DeletePool(worker)
      // Handed over (fewer than a batch: not sent yet)…
      unlinkAll(pool, paths.slice(0, 40), outcomes)
      // …then one of them rewritten by the user (same size: only its ctime and mtime say so).
      fs.writeFileSync(paths[7]!, 'file X')
      unlinkAll(pool, paths.slice(40), outcomes, 40)
      await pool.drain()
      expect(outcomes).toHaveLength(paths.length)
      expect(outcomes.flatMap((o, i) => (o ? [`${i}:${o}`] : []))).toEqual([`3:${GONE}`, `7:${UNPROVEN}`, `64:${GONE}`, `65:${GONE}`, `300:${GONE}`])
      expect(paths.filter((p) => fs.existsSync(p))).toEqual([paths[7]])
      expect(fs.readFileSync(paths[7]!, 'utf8')).toBe('file X')
      // All of it done by the worker: it is not behind any more.
      expect(pool.full).toBe(false)
    } finally {
      await worker.close()
    }
  })

  it('a worker that dies mid-restore hands back every file it may not have unlinked, and never looks ready for more', async () => {
    const worker = new HashWorker()
    // More than the first batch (all the worker may have done) and the queue's bound together.
    const paths = files(64 + 256 + 100)
    const outcomes: (string | null)[] = []
    const pool = new DeletePool(worker)
    unlinkAll(pool, paths.slice(0, 100), outcomes)
    await worker.close()
    unlinkAll(pool, paths.slice(100), outcomes, 100)
    // What it was given and did not do counts against it: the steps unlink the next files themselves.
    expect(pool.full).toBe(true)
    await pool.drain()
    // Every file is either unlinked (by the worker before it died, or taken back by the drain) or
    // comes back to the steps (which judge and unlink it themselves: below, for a whole restore);
    // none is left behind as if it were done.
    expect(outcomes).toHaveLength(paths.length)
    expect(outcomes.filter((o) => o !== null && o !== UNPROVEN)).toEqual([])
    expect(paths.filter((p, i) => fs.existsSync(p) && outcomes[i] !== UNPROVEN)).toEqual([])
    expect(paths.filter((p, i) => !fs.existsSync(p) && outcomes[i] === null)).toHaveLength(outcomes.filter((o) => o === null).length)
  })

  it('files the worker has not reached when the pool drains are unlinked by the drain itself, not waited for', async () => {
    const worker = new HashWorker()
    try {
      const paths = files(300, new Set([250]))
      clockPast(path.dirname(paths[0]!), fs.lstatSync(paths[299]!).ctimeMs)
      const outcomes: (string | null)[] = []
      // The worker stays at the first file it claims: everything else is the drain's to do.
      const gate = new Int32Array(new SharedArrayBuffer(8))
      const pool = new DeletePool(worker, gate)
      unlinkAll(pool, paths.slice(0, 150), outcomes)
      await Atomics.waitAsync(gate, 1, 0).value
      fs.writeFileSync(paths[140]!, 'file X!')
      unlinkAll(pool, paths.slice(150), outcomes, 150)
      const drained = pool.drain()
      // Only the file the worker holds is left, and its batch is still out.
      expect(paths.filter((p) => fs.existsSync(p))).toEqual([paths[0], paths[140]])
      expect(pool.idle).toBe(false)
      open(gate)
      await drained
      expect(outcomes.flatMap((o, i) => (o ? [`${i}:${o}`] : []))).toEqual([`140:${UNPROVEN}`, `250:${GONE}`])
      expect(paths.filter((p) => fs.existsSync(p))).toEqual([paths[140]])
      expect(pool.full).toBe(false)
    } finally {
      await worker.close()
    }
  })

  // The worker is held at its first claim (file 0), and let go for two more claims as the drain
  // takes back file `at`: with one batch (64 files), the worker unlinks file 0, claims file 2 and
  // unlinks it, claims file 3 and is held there, while the drain takes back 4 to 63; with two, it
  // ends the first batch, starts the second (whose file 64 the drain took), unlinks file 65 and is
  // held at 66, while the drain takes back 67 to 127.
  it.each([
    ['a file the worker claims between two of the drain’s is its own: unlinked and settled once, before the drain ends', 64, 1, 3],
    ['a batch the worker starts while the drain takes it back is waited for: nothing it claimed is left when the drain ends', 128, 64, 66],
  ])('%s', async (_name, n, at, heldAt) => {
    const worker = new HashWorker()
    let held: Int32Array | null = null
    try {
      const { paths, gate, pool, settled, errors } = await heldPool(worker, n, (i, g) => i === at && letClaim(g, 2))
      held = gate
      const drained = pool.drain()
      expect(paths.filter((p) => fs.existsSync(p))).toEqual([paths[heldAt]])
      expect(pool.idle).toBe(false)
      open(gate)
      await drained
      expect(errors).toEqual([])
      expect(settled.flatMap((k, i) => (k === 1 ? [] : [`${i}:${k}`]))).toEqual([])
      expect(paths.filter((p) => fs.existsSync(p))).toEqual([])
    } finally {
      if (held) open(held)
      await worker.close()
    }
  })

  it('a path that names another file than the one handed over (a folder swapped for a link) is left alone', async () => {
    const worker = new HashWorker()
    try {
      const paths = files(10)
      const dir = path.dirname(paths[0]!)
      const outcomes: (string | null)[] = []
      const pool = new DeletePool(worker)
      // Handed over (fewer than a batch: nothing is sent before the drain)…
      unlinkAll(pool, paths, outcomes)
      // …then the folder is swapped for a link to one of the user's holding the same names.
      const users = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-pool-user-'))
      made.push(users, `${dir}.moved`)
      for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(users, `f${i}.js`), `the user's ${i}`)
      fs.renameSync(dir, `${dir}.moved`)
      fs.symlinkSync(users, dir)
      await pool.drain()
      expect(outcomes).toEqual(Array(10).fill(UNPROVEN))
      expect(fs.readdirSync(users).length).toBe(10)
      expect(fs.readFileSync(path.join(users, 'f3.js'), 'utf8')).toBe("the user's 3")
    } finally {
      await worker.close()
    }
  })

  it('a batch that fails as a whole fails the drain, not the process', async () => {
    // A worker answering with an error for the whole job (not a file's): no unhandled rejection
    // may take the process down before the restore drains its pool.
    const broken = { unlinkAll: () => Promise.reject(new Error('the worker could not read its job')) } as unknown as HashWorker
    const pool = new DeletePool(broken)
    const paths = files(200)
    unlinkAll(pool, paths, [])
    await new Promise((resolve) => setImmediate(resolve))
    await expect(pool.drain()).rejects.toThrow('the worker could not read its job')
  })

  it('an install turn’s restore through the worker: every file and folder gone, files the user changed meanwhile kept and reported in order', async () => {
    const { w, plan } = await installTurn(600, 7, (w) => w.write('src/app.ts', 'app'))
    const keys: string[] = []
    const r = await w.store.apply(
      plan,
      {},
      {
        onStep: (i, s) => {
          keys.push(s.key)
          if (i !== 10) return
          // While the first deletes run: one late file edited, one replaced by a folder of the
          // user's, one removed by the user; one handed to the worker already edited (same size),
          // one given its own mode again (its ctime moved, its content did not: it is deleted).
          w.write('installed/p6/f594.js', 'edited by the user')
          fs.rmSync(w.p('installed/p3/f101.js'))
          w.write('installed/p3/f101.js/notes.txt', 'the user’s folder')
          fs.rmSync(w.p('installed/p1/f8.js'))
          expect(keys[3]).toBe('installed/p0/f119.js')
          w.write(keys[3]!, 'f911')
          fs.chmodSync(w.p(keys[4]!), fs.statSync(w.p(keys[4]!)).mode)
        },
      },
    )
    expect(r.failed).toEqual([])
    // In step order: the files, then the folders that still hold them (deepest first).
    expect(r.skipped.map((s) => s.path)).toEqual([
      'installed/p0/f119.js',
      'installed/p3/f101.js',
      'installed/p6/f594.js',
      'installed/p0',
      'installed/p3',
      'installed/p6',
      'installed',
    ])
    expect(w.text('installed/p0/f119.js')).toBe('f911')
    expect(w.exists(keys[4]!)).toBe(false)
    expect(w.text('installed/p6/f594.js')).toBe('edited by the user')
    expect(w.text('installed/p3/f101.js/notes.txt')).toBe('the user’s folder')
    expect(fs.readdirSync(w.p('installed/p6'))).toEqual(['f594.js'])
    expect(fs.readdirSync(w.p('installed')).sort()).toEqual(['p0', 'p3', 'p6'])
    expect(w.text('src/app.ts')).toBe('app')
  })

  it('a worker that dies in the middle of a restore: the steps unlink the rest themselves, nothing left behind', async () => {
    const { w, plan } = await installTurn(900, 5)
    const worker = acquireHashWorker()
    let killed: Promise<void> | null = null
    const r = await w.store.apply(plan, {}, { onStep: (i) => void (i === 300 && (killed = worker.close())) })
    await killed
    await releaseHashWorker(worker)
    expect(killed).not.toBeNull()
    expect(r.status).toBe('done')
    expect(r.failed).toEqual([])
    expect(w.exists('installed')).toBe(false)
  })

  it('a folder swapped for a link after its files were handed over: the same bytes behind the link are never deleted', async () => {
    const w = await workspace({ hashWorker: true })
    await w.store.capture('s/m1')
    // One folder's files first in the steps (all handed over), then others (unlinked meanwhile).
    for (let i = 0; i < 100; i++) w.write(`installed/a/f${i}.js`, `f${i}`)
    for (let i = 0; i < 500; i++) w.write(`installed/b${i % 5}/f${i}.js`, `f${i}`)
    // Every file's ctime a proof at the seal (stat-proof.ts), so each is handed to the worker: a
    // file written within a clock tick of the seal is deleted by the steps themselves instead.
    clockPast(w.ws, fs.lstatSync(w.p('installed/b4/f499.js')).ctimeMs)
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    // The user's copy of that folder (a package store's, say: the same bytes), elsewhere.
    const users = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-pool-user-'))
    made.push(users)
    for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(users, `f${i}.js`), `f${i}`)
    const hold = holdWorker()
    const r = await w.store.apply(
      plan,
      {},
      {
        onStep: (i) => {
          if (i !== 150) return
          // The folder's files wait in the worker's queue; the user swaps the folder for a link to
          // their copy, then the worker goes on.
          fs.renameSync(w.p('installed/a'), path.join(users, '..', `${path.basename(users)}-moved`))
          made.push(path.join(users, '..', `${path.basename(users)}-moved`))
          fs.symlinkSync(users, w.p('installed/a'))
          hold.release()
        },
      },
    )
    await hold.done()
    expect(r.failed).toEqual([])
    expect(fs.readdirSync(users).length).toBe(100)
    expect(fs.readFileSync(path.join(users, 'f7.js'), 'utf8')).toBe('f7')
    expect(r.skipped.filter((s) => s.path.startsWith('installed/a/'))).toHaveLength(100)
    expect(fs.readlinkSync(w.p('installed/a'))).toBe(users)
    expect(fs.readdirSync(w.p('installed'))).toEqual(['a'])
  })

  it('whatever else the process runs while a large restore waits on the worker sees its own working folder', async () => {
    const w = await workspace({ hashWorker: true })
    await w.store.capture('s/m1')
    for (let i = 0; i < 2000; i++) w.write(`installed/p${i % 9}/lib/f${i}.js`, `f${i}`)
    // Every file handed to the worker (its ctime a proof at the seal), as in the test above.
    clockPast(w.ws, fs.lstatSync(w.p('installed/p1/lib/f1999.js')).ctimeMs)
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    // The worker is held at the first file it claims until the steps have passed their last
    // delete, and the steps' last delete waits until it has claimed it (its thread may come up
    // late on a loaded machine, after the drain took back everything): that batch cannot settle
    // before, so the restore must wait for it before its first rmdir, whatever the machine's speed.
    const workerGate = new Int32Array(new SharedArrayBuffer(8))
    let deletes = 0
    let released = false
    const home = process.cwd()
    const seen = new Set<string>()
    let running = true
    const look = (): void => {
      seen.add(process.cwd())
      if (deletes === 2000 && !released) {
        released = true
        // The worker goes on.
        open(workerGate)
      }
      if (running) setImmediate(look)
    }
    setImmediate(look)
    const onStep = (_i: number, s: { op: string }): void => {
      if (s.op === 'unlink' && ++deletes === 2000) Atomics.wait(workerGate, 1, 0, 30_000)
    }
    const r = await w.store.apply(plan, {}, { workerGate, onStep })
    running = false
    expect(r.status).toBe('done')
    expect(w.exists('installed')).toBe(false)
    // A turn of the event loop ran after the last delete (the one that let the worker go, which the
    // restore waited for), and whatever ran then or before ran in the process's own folder, never
    // inside a folder of the restore (folder-lane.ts).
    expect(Atomics.load(workerGate, 1)).toBe(1)
    expect(released).toBe(true)
    expect([...seen]).toEqual([home])
  })

  it('a large restore never waits behind another store’s job on the worker: it does the deletes itself', async () => {
    const { w, plan } = await installTurn(1500, 6)
    // The process's worker is busy (held on a FIFO, as on a large copy) for the whole restore.
    const hold = holdWorker()
    try {
      const r = await w.store.apply(plan)
      expect(r.status).toBe('done')
      expect(r.failed).toEqual([])
      expect(w.exists('installed')).toBe(false)
    } finally {
      hold.release()
      await hold.done()
    }
  })

  it('a process that restores an install and closes its store at once ends its work: the store’s close returns', async () => {
    // The restore took back its deletes before the hash worker had come up, and stopping a worker
    // still starting let a process with nothing else to do exit with the close pending (silently:
    // the model test's scenarios just ended). Several runs: how far the worker got varies.
    for (let run = 0; run < 4; run++) {
      const w = await workspace({})
      await w.store.close()
      const child = await runChild(path.join(__dirname, 'children/restore-and-close.ts'), [w.storeDir, w.ws])
      expect(child.stdout.trim().split('\n'), child.stderr).toEqual(['restored done false', 'closed'])
    }
  })
})
