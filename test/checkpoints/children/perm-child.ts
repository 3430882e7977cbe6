// Child for B6, run as an unprivileged user (root ignores file modes): a restore that hits EACCES
// is reported as partial, the turn stays unrestored, and a second attempt after the fix succeeds.
import fs from 'node:fs'
import path from 'node:path'
import { openCheckpointStore } from '../../../electron/checkpoints/index'

const dir = process.argv[2]!
const ws = path.join(dir, 'ws')
fs.mkdirSync(path.join(ws, 'ro'), { recursive: true })
fs.writeFileSync(path.join(ws, 'a.txt'), 'a0')
fs.writeFileSync(path.join(ws, 'ro/b.txt'), 'b0')
const store = await openCheckpointStore({ storeDir: path.join(dir, 'store'), roots: [{ path: ws }] })
await store.capture('s/m1')
fs.writeFileSync(path.join(ws, 'a.txt'), 'a1')
fs.writeFileSync(path.join(ws, 'ro/b.txt'), 'b1')
await store.seal('s/m1')
fs.chmodSync(path.join(ws, 'ro'), 0o555) // the folder is read-only now: no temp file, no rename
const first = await store.apply(await store.plan({ turnKey: 's/m1' }))
const afterFirst = { a: fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), b: fs.readFileSync(path.join(ws, 'ro/b.txt'), 'utf8'), status: store.listTurns('s')[0]!.status }
fs.chmodSync(path.join(ws, 'ro'), 0o755)
const second = await store.apply(await store.plan({ turnKey: 's/m1' }))
const afterSecond = { a: fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), b: fs.readFileSync(path.join(ws, 'ro/b.txt'), 'utf8'), status: store.listTurns('s')[0]!.status }
await store.close()
process.stdout.write(JSON.stringify({ uid: process.getuid!(), first, afterFirst, second, afterSecond }))
