// Names that are not UTF-8 (Linux allows any bytes). Before, such files were
// skipped at capture: one the turn deleted could not come back, one it created stayed behind.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { displayPath } from '../../shared/display-path'
import { workspace } from './helpers'

const raw = (ws: string, ...parts: (string | number[])[]) => Buffer.concat([Buffer.from(ws + '/'), ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))])

/** Every entry under `root` as bytes (hex of the name) → content, so names that are not UTF-8 compare exactly. */
function byteTree(root: Buffer, rel = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of fs.readdirSync(root, { withFileTypes: true, encoding: 'buffer' })) {
    const name = e.name as unknown as Buffer
    const p = Buffer.concat([root, Buffer.from('/'), name])
    const r = rel + '/' + name.toString('hex')
    if (e.isDirectory()) Object.assign(out, { [r]: 'dir' }, byteTree(p, r))
    else if (e.isSymbolicLink()) out[r] = 'link:' + (fs.readlinkSync(p, { encoding: 'buffer' }) as Buffer).toString('hex')
    else out[r] = fs.readFileSync(p).toString('hex')
  }
  return out
}

describe('names that are not UTF-8 (class 7)', () => {
  it('are captured and restored as bytes: deleted ones come back, created ones go, links keep their byte targets', async () => {
    const w = await workspace()
    if (process.platform === 'darwin') return // APFS refuses such names: nothing to lose there
    fs.writeFileSync(raw(w.ws, 'bad', [0xff], '.txt'), 'deleted by the turn')
    fs.mkdirSync(raw(w.ws, 'dir', [0xc3, 0x28]))
    fs.writeFileSync(raw(w.ws, 'dir', [0xc3, 0x28], '/f.txt'), 'v0')
    fs.symlinkSync(raw(w.ws, 'dir', [0xc3, 0x28], '/f.txt').subarray(w.ws.length + 1), raw(w.ws, 'link'))
    w.write('plain.txt', 'p0')
    const before = byteTree(Buffer.from(w.ws))
    const cap = await w.store.capture('s/m1')
    expect(cap.notCheckpointed).toEqual([])

    fs.rmSync(raw(w.ws, 'bad', [0xff], '.txt'))
    fs.writeFileSync(raw(w.ws, 'dir', [0xc3, 0x28], '/f.txt'), 'v1')
    fs.writeFileSync(raw(w.ws, 'dir', [0xc3, 0x28], '/new', [0xfe], '.txt'), 'created by the turn')
    fs.rmSync(raw(w.ws, 'link'))
    fs.symlinkSync(raw(w.ws, 'other', [0x80]).subarray(w.ws.length + 1), raw(w.ws, 'link'))
    w.write('plain.txt', 'p1')
    await w.store.seal('s/m1')
    const after = byteTree(Buffer.from(w.ws))

    const plan = await w.store.plan({ turnKey: 's/m1' })
    const shown = Object.fromEntries(plan.actions.map((a) => [displayPath(a.path), a.kind]))
    expect(shown).toEqual({ 'bad\\xff.txt': 'recreate', 'dir\\xc3(/f.txt': 'restore', 'dir\\xc3(/new\\xfe.txt': 'delete', link: 'restore', 'plain.txt': 'restore' })
    const res = await w.store.apply(plan)
    expect(res.failed).toEqual([])
    expect(byteTree(Buffer.from(w.ws))).toEqual(before)
    await w.store.undo(res.restoreId!)
    expect(byteTree(Buffer.from(w.ws))).toEqual(after)
    // The store's records hold the names in a form that survives JSON and reopening.
    await w.reopen()
    const again = await w.store.plan({ turnKey: 's/m1' })
    expect(again.actions.map((a) => displayPath(a.path)).sort()).toEqual(Object.keys(shown).sort())
  })

  it('a file the turn made in such a folder, its ctime moved since (its stat proves nothing), is still judged by content and deleted', async () => {
    const w = await workspace()
    if (process.platform === 'darwin') return
    await w.store.capture('s/m1')
    fs.mkdirSync(raw(w.ws, 'pkg', [0xff, 0xfe]))
    const file = raw(w.ws, 'pkg', [0xff, 0xfe], '/f.js')
    fs.writeFileSync(file, 'v1')
    await w.store.seal('s/m1')
    // Its own mode again: the ctime moves, the content does not. The restore's check reads it, after
    // asking whether its folder still resolves where its step found it (a realpath of raw bytes).
    fs.chmodSync(file, fs.statSync(file).mode)
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(res.skipped).toEqual([])
    expect(res.failed).toEqual([])
    expect(fs.readdirSync(w.ws)).toEqual([])
  })
})
