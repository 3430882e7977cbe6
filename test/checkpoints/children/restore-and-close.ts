// Child for delete-pool.test.ts: a process with nothing else to do restores an install turn at
// once (its hash worker not started before) and closes the store, as a CLI would.
import fs from 'node:fs'
import path from 'node:path'
import { openCheckpointStore } from '../../../core/checkpoints/index'

const [storeDir, ws] = process.argv.slice(2) as [string, string]
const store = await openCheckpointStore({ storeDir, roots: [{ path: ws }], watch: false })
await store.capture('s/m1')
for (let i = 0; i < 400; i++) {
  const dir = path.join(ws, 'installed', `p${i % 4}`)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, `f${i}.js`), `f${i}`)
}
await store.seal('s/m1')
const r = await store.apply(await store.plan({ turnKey: 's/m1' }))
process.stdout.write(`restored ${r.status} ${fs.existsSync(path.join(ws, 'installed'))}\n`)
await store.close()
process.stdout.write('closed\n')
