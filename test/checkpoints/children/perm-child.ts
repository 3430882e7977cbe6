// Child for B6, run as an unprivileged user (root ignores file modes): a restore that hits EACCES
// is reported as partial, the turn stays unrestored, and a second attempt after the fix succeeds.
import fs from 'node:fs'
import path from 'node:path'
import { openCheckpointStore } from '../../../core/checkpoints/index'

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

// A read-only folder the turn deleted (as `rm -rf` does after making it writable) comes back with
// its files and then its mode: its owner's write bit is lent while the files go in.
fs.mkdirSync(path.join(ws, 'locked/inner'), { recursive: true })
fs.writeFileSync(path.join(ws, 'locked/inner/c.txt'), 'c0')
fs.writeFileSync(path.join(ws, 'locked/d.txt'), 'd0')
fs.chmodSync(path.join(ws, 'locked/inner'), 0o555)
fs.chmodSync(path.join(ws, 'locked'), 0o555)
await store.capture('s/m2')
fs.chmodSync(path.join(ws, 'locked'), 0o755)
fs.chmodSync(path.join(ws, 'locked/inner'), 0o755)
fs.rmSync(path.join(ws, 'locked'), { recursive: true })
await store.seal('s/m2')
const third = await store.apply(await store.plan({ turnKey: 's/m2' }))
const mode = (p: string) => (fs.statSync(path.join(ws, p)).mode & 0o777).toString(8)
const afterThird = {
  c: fs.readFileSync(path.join(ws, 'locked/inner/c.txt'), 'utf8'),
  d: fs.readFileSync(path.join(ws, 'locked/d.txt'), 'utf8'),
  locked: mode('locked'),
  inner: mode('locked/inner'),
}
fs.chmodSync(path.join(ws, 'locked'), 0o755)
fs.chmodSync(path.join(ws, 'locked/inner'), 0o755)
await store.close()
process.stdout.write(JSON.stringify({ uid: process.getuid!(), first, afterFirst, second, afterSecond, third, afterThird }))
