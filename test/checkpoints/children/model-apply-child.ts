// Child for the model test's crash scenarios (model/crash.ts): open the store, plan the restore of a
// turn (or the undo of a restore), print what the apply will skip, then apply it and kill itself at
// a step or just before a rename, chosen as a share of the plan. With nothing to kill at (no rename
// in the plan) it finishes and prints its result. The turns' tool use (model/turn-tools.ts) comes in
// a JSON file, so the child plans with what the parent would have told the engine.
import fs from 'node:fs'
import { openCheckpointStore } from '../../../core/checkpoints/index'
import { toolUseFromJson, toolUseOption } from '../model/turn-tools'

const [storeDir, ws, openJson, what, id, mode, atStr, toolsFile] = process.argv.slice(2) as [string, string, string, 'turn' | 'undo', string, 'step' | 'rename', string, string]
const store = await openCheckpointStore({ storeDir, roots: [{ path: ws }], ...JSON.parse(openJson) })
const plan = what === 'turn' ? await store.plan({ turnKey: id }, { toolUse: toolUseOption(toolUseFromJson(fs.readFileSync(toolsFile, 'utf8'))) }) : await store.planUndo(id)
// What apply reports as skipped without running a step: conflicts (restore-rest) and what was never kept.
const skipped = plan.actions.filter((a) => a.kind === 'conflict' || a.kind === 'not-checkpointed').map((a) => ({ root: a.root, path: a.path, reason: a.reason ?? a.kind }))
// Written out (handed to the pipe) before the apply: a kill mid-apply loses what is still buffered,
// and a plan with many skips prints more than a pipe holds.
const print = (text: string) => new Promise<void>((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())))
await print(`skipped:${JSON.stringify(skipped)}\n`)
// The kill point, as a share of what the apply will do: one step (about) per acting path, one
// rename per file or link written back.
const acting = plan.actions.filter((a) => a.kind === 'restore' || a.kind === 'delete' || a.kind === 'recreate')
const total = mode === 'step' ? acting.length : acting.filter((a) => a.target && a.target.type !== 'dir').length
const n = Math.floor(Number(atStr) * total)
await print(`kill-at:${mode} ${n} of ${total}\n`)
let renames = 0
const res = await store.apply(
  plan,
  { onConflict: 'restore-rest' },
  {
    onStep: (i) => {
      if (mode === 'step' && i === n) process.kill(process.pid, 'SIGKILL')
    },
    beforeRename: () => {
      if (mode === 'rename' && renames++ === n) process.kill(process.pid, 'SIGKILL')
    },
  },
)
await print(`result:${JSON.stringify(res)}\n`)
await store.close()
