// Child for B9: capture a turn, then die at once (SIGKILL, no close, no flush of anything else).
import { openCheckpointStore } from '../../../core/checkpoints/index'

const [storeDir, ws] = process.argv.slice(2) as [string, string]
const store = await openCheckpointStore({ storeDir, roots: [{ path: ws }] })
await store.capture('ses_crash/msg_1')
process.stdout.write('captured\n')
process.kill(process.pid, 'SIGKILL')
