// The first capture of a tree, made faster (large-blobs.ts, packs.ts): every byte still stored and
// hashed exactly, blobs private, nothing left in tmp/, content durable before the snapshot.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BlobStore } from '../../core/checkpoints/store/blobs'
import { clockPast, runChild, seededBytes, sha, workspace } from './helpers'

afterEach(() => vi.restoreAllMocks())

/** Every file of a tree by its root-relative path → sha256 of its bytes. */
function contents(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else out[path.relative(root, p)] = sha(fs.readFileSync(p))
    }
  }
  walk(root)
  return out
}

/** A tree with what a real dependency tree has: many small files, large ones, copies and hard links. */
function fill(w: Awaited<ReturnType<typeof workspace>>): void {
  for (let i = 0; i < 300; i++) w.write(`pkg${i % 7}/lib/f${i}.js`, seededBytes(i, 100 + ((i * 7919) % 60_000)))
  w.write('pkg0/lib/dup.js', seededBytes(3, 100 + ((3 * 7919) % 60_000))) // same content as f3.js
  w.write('pkg1/bin/tool', seededBytes(1000, 3 << 20), 0o755)
  w.write('pkg2/bin/tool', seededBytes(1000, 3 << 20), 0o755) // an identical copy
  w.write('pkg3/bin/other', seededBytes(1001, 3 << 20)) // same size, other content
  w.write('pkg4/data.bin', seededBytes(1002, (1 << 20) + 17))
  w.write('pkg5/edge.bin', seededBytes(1003, (1 << 20) - 1)) // the largest packed size
  fs.mkdirSync(w.p('pkg6/bin'), { recursive: true })
  fs.linkSync(w.p('pkg1/bin/tool'), w.p('pkg6/bin/tool')) // a hard link
  w.write('empty.txt', '')
}

describe('first capture', () => {
  it('stores every byte of every file (small, large, copies, hard links) exactly, each content once, blobs private', async () => {
    const w = await workspace()
    fill(w)
    w.settle()
    const before = contents(w.ws)
    const r = await w.store.capture('s/m1')
    expect(r.notCheckpointed).toEqual([])
    expect(r.filesHashed).toBe(Object.keys(before).length)
    // Nothing half-made is left, and every loose blob is 0600 whatever the source's mode.
    expect(fs.readdirSync(path.join(w.storeDir, 'tmp'))).toEqual([])
    const blobDir = path.join(w.storeDir, 'blobs')
    const loose = fs.readdirSync(blobDir).flatMap((s) => fs.readdirSync(path.join(blobDir, s)).map((n) => path.join(blobDir, s, n)))
    expect(loose).toHaveLength(3) // tool (once for the copy and the link), other, data.bin
    for (const f of loose) {
      expect(fs.statSync(f).mode & 0o777).toBe(0o600)
      expect(path.basename(f)).toBe(sha(fs.readFileSync(f)))
    }
    // The turn deletes everything; the restore brings back every byte.
    for (const name of fs.readdirSync(w.ws)) fs.rmSync(w.p(name), { recursive: true })
    await w.store.seal('s/m1')
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(res.failed).toEqual([])
    expect(contents(w.ws)).toEqual(before)
    expect(fs.statSync(w.p('pkg1/bin/tool')).mode & 0o777).toBe(0o755)
  })

  it('is durable once capture resolves: a kill right after it loses no content', async () => {
    const w = await workspace()
    fill(w)
    const before = contents(w.ws)
    await w.store.close()
    const child = await runChild(path.join(__dirname, 'children/capture-and-die.ts'), [w.storeDir, w.ws])
    expect(child.signal).toBe('SIGKILL')
    for (const name of fs.readdirSync(w.ws)) fs.rmSync(w.p(name), { recursive: true })
    await w.reopen()
    await w.store.seal('ses_crash/msg_1')
    const res = await w.store.apply(await w.store.plan({ turnKey: 'ses_crash/msg_1' }))
    expect(res.failed).toEqual([])
    expect(contents(w.ws)).toEqual(before)
  })
})

describe('hard links in a first capture', () => {
  /** Two names of one 3 MB inode, old enough that their ctime is a proof (stat-proof.ts). */
  async function linked(): Promise<Awaited<ReturnType<typeof workspace>>> {
    const w = await workspace()
    w.write('a/tool', seededBytes(7, 3 << 20))
    fs.mkdirSync(w.p('b'))
    fs.linkSync(w.p('a/tool'), w.p('b/tool'))
    clockPast(w.dir, fs.lstatSync(w.p('b/tool')).ctimeMs)
    return w
  }

  it('the second name of an inode just read is not read again', async () => {
    const w = await linked()
    const puts = vi.spyOn(BlobStore.prototype, 'putFile')
    const r = await w.store.capture('s/m1')
    expect(puts).toHaveBeenCalledTimes(1)
    expect(r.filesHashed).toBe(2)
    fs.rmSync(w.p('a'), { recursive: true })
    fs.rmSync(w.p('b'), { recursive: true })
    await w.store.seal('s/m1')
    await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(w.sha('a/tool')).toBe(sha(seededBytes(7, 3 << 20)))
    expect(w.sha('b/tool')).toBe(sha(seededBytes(7, 3 << 20)))
  })

  it('is read again when the inode was written after the first name was read (its ctime moved)', async () => {
    const w = await linked()
    const v2 = seededBytes(8, 3 << 20)
    const names = [w.p('a/tool'), w.p('b/tool')]
    let first: string | null = null
    let armed = true
    const put = BlobStore.prototype.putFile
    vi.spyOn(BlobStore.prototype, 'putFile').mockImplementation(async function (this: BlobStore, abs, size, onBytes) {
      const r = await put.call(this, abs, size, onBytes)
      first ??= abs
      return r
    })
    const lstat = fs.lstatSync
    vi.spyOn(fs, 'lstatSync').mockImplementation(((p: fs.PathLike, o?: fs.StatSyncOptions) => {
      // The other name's stat before its read: the user's tool rewrites the file in place first.
      if (armed && first && p !== first && names.includes(String(p))) {
        armed = false
        fs.writeFileSync(String(p), v2)
      }
      return lstat(p, o)
    }) as typeof fs.lstatSync)
    await w.store.capture('s/m1')
    vi.restoreAllMocks()
    expect(armed).toBe(false)
    fs.rmSync(w.p('a'), { recursive: true })
    fs.rmSync(w.p('b'), { recursive: true })
    await w.store.seal('s/m1')
    await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    // The name read first holds the old version, the other the new one: never the old one twice.
    const got = [w.sha('a/tool'), w.sha('b/tool')].sort()
    expect(got).toEqual([sha(seededBytes(7, 3 << 20)), sha(v2)].sort())
  })
})
