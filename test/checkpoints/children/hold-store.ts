// Child for the store-owner tests: open a store and keep it open until killed.
import { openCheckpointStore } from '../../../core/checkpoints/index'

const [storeDir, ws] = process.argv.slice(2) as [string, string]
const store = await openCheckpointStore({ storeDir, roots: [{ path: ws }] })
await store.capture('ses_other/msg_1')
process.stdout.write('held\n')
setInterval(() => {}, 60_000)
