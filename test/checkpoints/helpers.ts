// Shared helpers for the checkpoint engine tests: a fresh temporary workspace and store per test,
// file helpers, and running a child script (crash tests, unprivileged-user tests).
import { spawn, spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'
import { afterEach, vi } from 'vitest'
import { openCheckpointStore } from '../../core/checkpoints/index'
import type { InternalStore } from '../../core/checkpoints/index'
import { FINE_CTIME_MARGIN_MS } from '../../core/checkpoints/capture/stat-proof'
import type { TurnToolUse } from '../../core/checkpoints/plan/attribution'
import type { Plan, PlanTarget, RootConfig, SpaceGate } from '../../core/checkpoints/types'

export const REPO = fileURLToPath(new URL('../..', import.meta.url))

/** The change journal: the engine's default ('auto': on for a local Linux folder); RETAKE_CK_WATCH=0 walks in full, =1 forces it on. */
export const WATCH = process.env.RETAKE_CK_WATCH === '0' ? false : process.env.RETAKE_CK_WATCH === '1' ? true : undefined

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

export interface Ws {
  dir: string
  ws: string
  storeDir: string
  store: InternalStore
  p(rel: string): string
  write(rel: string, data: string | Buffer, mode?: number): void
  read(rel: string): Buffer
  text(rel: string): string
  exists(rel: string): boolean
  sha(rel: string): string
  reopen(extra?: Partial<{ roots: RootConfig[]; maxFileBytes: number }>): Promise<InternalStore>
  /**
   * Ages every file's mtime by a minute, as files settled before a turn are: files written just
   * before a capture are "racy" and re-read at the next one (tests that count reads settle first).
   * Their ctimes cannot be aged: it returns once the clock is past them by two ticks (~40 ms).
   */
  settle(): void
}

export async function workspace(
  opts: { roots?: (ws: string, dir: string) => RootConfig[]; maxFileBytes?: number; base?: string; watch?: boolean; spaceGate?: SpaceGate } = {},
): Promise<Ws> {
  const dir = fs.mkdtempSync(path.join(opts.base ?? os.tmpdir(), 'retake-ck-'))
  const ws = path.join(dir, 'ws')
  fs.mkdirSync(ws)
  const storeDir = path.join(dir, 'data', 'checkpoints')
  const roots = opts.roots ? opts.roots(ws, dir) : [{ path: ws }]
  const w: Ws = {
    dir,
    ws,
    storeDir,
    store: await openCheckpointStore({
      storeDir,
      roots,
      maxFileBytes: opts.maxFileBytes,
      watch: opts.watch ?? WATCH,
      spaceGate: opts.spaceGate,
    }),
    p: (rel) => path.join(ws, rel),
    write(rel, data, mode) {
      const f = path.join(ws, rel)
      fs.mkdirSync(path.dirname(f), { recursive: true })
      fs.writeFileSync(f, data)
      if (mode !== undefined) fs.chmodSync(f, mode)
    },
    read: (rel) => fs.readFileSync(path.join(ws, rel)),
    text: (rel) => fs.readFileSync(path.join(ws, rel), 'utf8'),
    exists: (rel) => {
      try {
        fs.lstatSync(path.join(ws, rel))
        return true
      } catch {
        return false
      }
    },
    sha: (rel) => sha(fs.readFileSync(path.join(ws, rel))),
    settle() {
      const t = new Date(Date.now() - 60_000)
      let lastCtime = 0
      const walk = (d: string): void => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name)
          if (e.isDirectory()) walk(p)
          else if (e.isFile()) {
            fs.utimesSync(p, t, t)
            lastCtime = Math.max(lastCtime, fs.lstatSync(p).ctimeMs)
          }
        }
      }
      walk(ws)
      // utimes moves each ctime to now: wait until those ctimes are proofs.
      clockPast(dir, lastCtime)
    },
    async reopen(extra = {}) {
      await w.store.close()
      w.store = await openCheckpointStore({
        storeDir,
        roots: extra.roots ?? roots,
        maxFileBytes: extra.maxFileBytes ?? opts.maxFileBytes,
        watch: opts.watch ?? WATCH,
        spaceGate: opts.spaceGate,
      })
      return w.store
    },
  }
  cleanups.push(async () => {
    await w.store.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  return w
}

/**
 * Returns once the file system's clock is two ticks past `ctimeMs`, as a probe file in `dir` shows:
 * a ctime is a proof only from then on (stat-proof.ts). Waits on that clock, not on a timer.
 */
export function clockPast(dir: string, ctimeMs: number): void {
  const probe = path.join(dir, 'clock-probe')
  do fs.writeFileSync(probe, '')
  while (fs.lstatSync(probe).ctimeMs < ctimeMs + 2 * FINE_CTIME_MARGIN_MS)
  fs.rmSync(probe)
}

export const sha = (b: Buffer | string): string => crypto.createHash('sha256').update(b).digest('hex')

/**
 * Run a child TypeScript script; resolves with its exit code/signal and output. With `uid`, the
 * child runs as that user from `bundleDir`: the script is bundled there first (esbuild), because
 * the checkout itself may be private to its owner (a clone under a 0700 temp folder) and the other
 * user could then load neither the script nor tsx.
 */
export function runChild(
  script: string,
  args: string[],
  opts: { killAfterMs?: number; killAfterOutput?: { text: string; ms: number }; uid?: number; bundleDir?: string } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  let argv: string[]
  let cwd = REPO
  if (opts.uid !== undefined) {
    if (!opts.bundleDir) throw new Error('runChild: a child run as another user needs a bundleDir it can read')
    const out = path.join(opts.bundleDir, path.basename(script).replace(/\.ts$/, '.mjs'))
    esbuild.buildSync({ entryPoints: [script], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error' })
    fs.chmodSync(out, 0o644)
    argv = [out, ...args]
    cwd = opts.bundleDir
  } else {
    // node --import tsx (not the tsx CLI, which forks again): the pid we kill is the one running.
    argv = ['--import', 'tsx', script, ...args]
  }
  const cmd = opts.uid !== undefined ? 'setpriv' : process.execPath
  const full = opts.uid !== undefined ? [`--reuid=${opts.uid}`, `--regid=${opts.uid}`, '--clear-groups', process.execPath, ...argv] : argv
  return new Promise((resolve) => {
    const child = spawn(cmd, full, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.node.json') } })
    let stdout = ''
    let stderr = ''
    let armed = false
    child.stdout.on('data', (d) => {
      stdout += d
      const k = opts.killAfterOutput
      if (k && !armed && stdout.includes(k.text)) {
        armed = true
        setTimeout(() => child.kill('SIGKILL'), k.ms)
      }
    })
    child.stderr.on('data', (d) => (stderr += d))
    if (opts.killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs)
    // 'close', not 'exit': the child's output may still be in the pipe when it has exited.
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

/** A child TypeScript script left running: wait for a line of its output, then kill it. */
export function startChild(script: string, args: string[]): { waitFor(text: string): Promise<void>; output(): Promise<string>; kill(): Promise<void>; pid: number } {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.node.json') },
  })
  let out = ''
  const waiters: { text: string; resolve(): void }[] = []
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const onData = (d: Buffer) => {
    out += d
    for (const w of waiters.filter((x) => out.includes(x.text))) w.resolve()
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  return {
    pid: child.pid!,
    output: async () => out,
    waitFor: (text) =>
      Promise.race([
        new Promise<void>((resolve) => (out.includes(text) ? resolve() : waiters.push({ text, resolve }))),
        exited.then(() => {
          if (!out.includes(text)) throw new Error(`child exited before "${text}": ${out}`)
        }),
      ]),
    kill: () => {
      child.kill('SIGKILL')
      return exited
    },
  }
}

/** Can we run code as an unprivileged user here (root ignores file modes)? */
export function unprivilegedUid(): number | null {
  if (process.getuid?.() !== 0) return process.getuid ? process.getuid() : null
  const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', 'process.exit(process.getuid() === 65534 ? 0 : 1)'])
  return r.status === 0 ? 65534 : null
}

/**
 * A folder under which user `uid` (with only its own group, as runChild starts it) can reach what
 * the test makes: os.tmpdir() when every folder above it lets that user through, else /tmp. Why:
 * a TMPDIR inside a private folder (mktemp -d, a private clone) made such a child fail with a
 * module it could not open, not with what the test checks.
 */
export function reachableTmp(uid: number): string {
  // runChild's setpriv gives the child the group of the same number (nogroup for 65534).
  const gid = process.getuid?.() === 0 ? uid : process.getgid!()
  const passable = (dir: string): boolean => {
    for (let d = fs.realpathSync(dir); ; d = path.dirname(d)) {
      const st = fs.statSync(d)
      const bit = st.uid === uid ? 0o100 : st.gid === gid ? 0o010 : 0o001
      if (!(st.mode & bit)) return false
      if (d === path.dirname(d)) return true
    }
  }
  if (passable(os.tmpdir())) return os.tmpdir()
  if (passable('/tmp')) {
    console.warn(`${os.tmpdir()} cannot be reached by uid ${uid}: its child's folders go under /tmp`)
    return '/tmp'
  }
  throw new Error(`neither ${os.tmpdir()} nor /tmp can be reached by uid ${uid}`)
}

/** Deterministic pseudo-random bytes (seeded), for content that must be reproducible. */
export function seededBytes(seed: number, n: number): Buffer {
  const out = Buffer.allocUnsafe(n)
  let x = seed >>> 0 || 1
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

export function treeSnapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string, rel: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      const p = path.join(d, e.name)
      if (e.isDirectory()) {
        out[r + '/'] = 'dir'
        walk(p, r)
      } else if (e.isSymbolicLink()) out[r] = 'link:' + fs.readlinkSync(p)
      else out[r] = sha(fs.readFileSync(p)) + ':' + (fs.statSync(p).mode & 0o777).toString(8)
    }
  }
  walk(root, '')
  return out
}

/**
 * Runs `fn` with Date.now() an hour ahead, as a walk long after the tree last changed would see
 * it (folders' ctimes cannot be set back, so the clock moves forward instead). Timers stay real.
 */
export async function anHourLater<T>(fn: () => T | Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.now() + 3_600_000)
  try {
    return await fn()
  } finally {
    vi.useRealTimers()
  }
}

/**
 * A plan made knowing what each turn's tools wrote, as the host tells the engine ('sesA/m1' → paths
 * under the workspace; a turn not named is of unknown tool use). A string target is a turn key.
 * `asked` lists the turns the engine asked about.
 */
export function planKnowing(w: Ws, target: string | PlanTarget, uses: Record<string, string[]>): { plan: Promise<Plan>; asked: string[] } {
  const asked: string[] = []
  const plan = w.store.plan(typeof target === 'string' ? { turnKey: target } : target, {
    toolUse: async (turns) => {
      asked.push(...turns.map((t) => `${t.sessionID}/${t.messageID}`))
      return (t) => {
        const u = uses[`${t.sessionID}/${t.messageID}`]
        return u && ({ paths: new Set(u.map((p) => path.join(w.ws, p))), opaque: false } satisfies TurnToolUse)
      }
    },
  })
  return { plan, asked }
}
