// Child for the crash tests: open the store, plan the turn's restore and apply it. Depending on
// the mode it kills itself at a chosen step, just before a rename, or is killed by the parent.
import { openCheckpointStore } from '../../../core/checkpoints/index'

const [storeDir, ws, mode, nStr] = process.argv.slice(2) as [string, string, string, string]
const n = Number(nStr)
const store = await openCheckpointStore({ storeDir, roots: [{ path: ws }] })
const plan = await store.plan({ turnKey: 's/m1' })
let renames = 0
process.stdout.write(`steps-start\n`)
await store.apply(
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
process.stdout.write('applied\n')
await store.close()
