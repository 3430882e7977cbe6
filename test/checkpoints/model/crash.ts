// Crash points inside the model's scenarios: the restore (or the undo) runs in a child process that
// is killed at a random step or just before a random rename; the store is then reopened, recovery
// completes the restore, and the oracle judges the result as it judges an uninterrupted one.
// Decided from the seed alone, on a stream of its own (the scenario's other draws are unchanged,
// so every seed replays what it did before crashes existed, plus its crash).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { openCheckpointStore } from '../../../core/checkpoints/index'
import type { InternalStore, OpenOptions } from '../../../core/checkpoints/index'
import type { ApplyResult } from '../../../core/checkpoints/types'
import { rng } from './gen'
import { toolUseJson, type TurnTools } from './turn-tools'

/** Share of seeds whose restore or undo is killed; CI's 50 seeds get ~7, a soak hundreds. */
export const CRASH_SHARE = 0.15

export interface CrashPoint {
  /** Which apply is killed: the restore of the last turn, or its undo. */
  during: 'restore' | 'undo'
  mode: 'step' | 'rename'
  /** Where, as a share of the plan's steps (or of its renames): the child turns it into a count. */
  at: number
}

export function crashFor(seed: number): CrashPoint | null {
  const r = rng((seed * 2654435761 + 0x5eed) >>> 0)
  if (!r.chance(CRASH_SHARE)) return null
  return { during: r.chance(0.7) ? 'restore' : 'undo', mode: r.chance(0.6) ? 'step' : 'rename', at: r.next() }
}

const REPO = fileURLToPath(new URL('../../..', import.meta.url))
const CHILD = path.join(REPO, 'test/checkpoints/children/model-apply-child.ts')

function runChild(args: string[]): Promise<{ killed: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // node --import tsx (not the tsx CLI, which forks again): the process that kills itself is the one applying.
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TSX_TSCONFIG_PATH: path.join(REPO, 'tsconfig.node.json') },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    // 'close', not 'exit': the child's output may still be in the pipe when it has exited.
    child.on('close', (_code, signal) => resolve({ killed: signal === 'SIGKILL', stdout, stderr }))
  })
}

const line = (out: string, tag: string): string | undefined =>
  out
    .split('\n')
    .find((l) => l.startsWith(tag))
    ?.slice(tag.length)

/**
 * Apply the restore of `turnKey` (or the undo of `restoreId`) in a child killed at `crash`, then
 * reopen the store (recovery completes it). `store` must be closed first (one owner per store).
 * Returns the reopened store and the result the user is told: what apply reported before the
 * kill (its skips) plus what recovery reports, or the child's own result if it was not killed.
 */
export async function crashingApply(
  o: { storeDir: string; ws: string; open: Partial<OpenOptions>; what: 'turn' | 'undo'; id: string; crash: CrashPoint; tools: ReadonlyMap<string, TurnTools> },
  log: string[],
): Promise<{ store: InternalStore; result: ApplyResult }> {
  const c = o.crash
  // In a file: an install's named paths are more than one argument may hold.
  const toolsFile = path.join(path.dirname(o.storeDir), 'tool-use.json')
  fs.writeFileSync(toolsFile, toolUseJson(o.tools))
  const run = await runChild([o.storeDir, o.ws, JSON.stringify(o.open), o.what, o.id, c.mode, String(c.at), toolsFile])
  const journals = fs.existsSync(path.join(o.storeDir, 'journal')) ? fs.readdirSync(path.join(o.storeDir, 'journal')) : []
  const store = await openCheckpointStore({ storeDir: o.storeDir, roots: [{ path: o.ws }], ...o.open })
  try {
    return { store, result: reported(o, run, journals, store, log) }
  } catch (err) {
    // The caller only closes a store it was given: one left open keeps its watcher (and the soak) alive.
    await store.close()
    throw err
  }
}

/** What the user is told: the child's own result, or its skips before the kill plus recovery's. */
function reported(
  o: { what: 'turn' | 'undo'; crash: CrashPoint },
  run: { killed: boolean; stdout: string; stderr: string },
  journals: string[],
  store: InternalStore,
  log: string[],
): ApplyResult {
  const c = o.crash
  const skippedBefore = line(run.stdout, 'skipped:')
  if (skippedBefore === undefined) throw new Error(`the ${o.what} child did not plan: ${run.stderr.slice(-2000)}`)
  const finished = line(run.stdout, 'result:')
  if (!run.killed) {
    if (finished === undefined) throw new Error(`the ${o.what} child failed: ${run.stderr.slice(-2000)}`)
    log.push(`crash point ${c.mode} ${c.at.toFixed(2)} of the ${c.during} not reached (no ${c.mode === 'rename' ? 'rename' : 'step'} to kill at): it finished`)
    return JSON.parse(finished) as ApplyResult
  }
  const rec = store.recoveredRestores
  log.push(`${c.during} killed at ${c.mode} ${c.at.toFixed(2)} (${line(run.stdout, 'kill-at:')}); reopened: ${store.recovered.join('; ') || 'nothing to recover'}`)
  if (journals.length !== 1 || rec.length !== 1) throw new Error(`killed mid-${o.what} with ${journals.length} journal(s), ${rec.length} restore(s) recovered`)
  const r = rec[0]!
  return {
    restoreId: r.restoreId,
    status: r.failed.length ? 'partial' : 'done',
    applied: [],
    skipped: [...(JSON.parse(skippedBefore) as ApplyResult['skipped']), ...r.skipped],
    failed: r.failed,
    turnsMarkedRestored: r.failed.length === 0 && o.what === 'turn',
    warnings: [],
  }
}
