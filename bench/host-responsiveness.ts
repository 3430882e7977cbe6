// The host's responsiveness while the engine captures a large tree in its thread, and the budget
// lines the checkpoint bench prints (met / not met). The tree is a generated monorepo with several
// node_modules folders: 200,000 files by default, RETAKE_BENCH_HOST_FILES=n for a quicker run.
import fs from 'node:fs'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { CheckpointService } from '../core/checkpoint-service'
import type { Settings } from '../shared/ipc-contract'
import { generateMonorepo } from './workspaces'

export interface Budget {
  budget: string
  measured: string
  /** null: not measured in this run. */
  met: boolean | null
}

/**
 * Event-loop delay of this process (the host) while the engine's thread makes a first capture of
 * the tree: the p99 and the worst, in ms.
 */
export async function hostResponsiveness(work: string, files: number): Promise<{ files: number; captureMs: number; p99: number; max: number }> {
  const tree = path.join(work, 'monorepo')
  generateMonorepo(tree, files)
  const dataDir = fs.mkdtempSync(path.join(work, 'host-'))
  const settings = { excludes: [], extraFolders: [] } as unknown as Settings
  const service = new CheckpointService({ dataDir, settings: () => settings })
  try {
    await service.store(tree) // the thread up and the store open: what is timed is the capture
    const delay = monitorEventLoopDelay({ resolution: 5 })
    delay.enable()
    const t0 = performance.now()
    const r = await service.capture(tree, 'ses_bench', 'msg_first')
    const captureMs = performance.now() - t0
    delay.disable()
    return { files: r.filesScanned, captureMs, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 }
  } finally {
    await service.close()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

export function printBudgets(budgets: Budget[]): void {
  console.log('\n## Budgets\n')
  for (const b of budgets) console.log(`- ${b.budget}\n  ${b.measured} → ${b.met === null ? 'not measured' : b.met ? 'met' : 'NOT MET'}`)
}
