// What makes a capture of a large root cheap, and must never make it miss a change: lstat on worker
// threads (stat-pool.ts) and folder listings reused while a folder is unchanged (listing-memo.ts).
// The pooled walk must record exactly what the one-thread walk records, find every kind of change
// a turn makes, and stay correct when a worker dies or the tree changes mid-walk; a reused listing
// must never hide an entry, even one added to a folder whose mtime was then set back.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ExcludeRules, LevelCache } from '../../core/checkpoints/excludes'
import { ListingMemo, RACY_MARGIN_MS, listingStillValid, listingsTrustedOn } from '../../core/checkpoints/listing-memo'
import { walkRootPooled } from '../../core/checkpoints/pooled-walk'
import { walkRoot } from '../../core/checkpoints/scanner'
import type { RootState, ScanContext } from '../../core/checkpoints/scanner'
import { StatPool, acquireStatPool, releaseStatPool } from '../../core/checkpoints/stat-pool'
import type { StatBatch } from '../../core/checkpoints/stat-pool'
import { anHourLater, workspace } from './helpers'
import type { Ws } from './helpers'

const pools: StatPool[] = []
afterEach(async () => {
  while (pools.length) await pools.pop()!.close()
})
/** Two stat workers, closed after the test. */
function twoWorkers(): StatPool {
  const pool = new StatPool(2)
  pools.push(pool)
  return pool
}

/** ~2,600 paths: nested sources, a .gitignore'd build folder, an excluded cache, links, modes. */
function bigTree(w: Ws): void {
  for (let i = 0; i < 2400; i++) w.write(`src/p${i % 12}/m${i % 7}/f${i}.ts`, `export const v${i} = ${i}\n`)
  w.write('.gitignore', 'build/\n*.log\n')
  w.write('src/p3/.gitignore', 'generated/\n!keep.log\n')
  for (let i = 0; i < 50; i++) w.write(`build/out${i}.js`, 'x')
  w.write('src/p3/generated/g.ts', 'generated')
  w.write('src/p3/keep.log', 'kept by the nested rule')
  w.write('debug.log', 'ignored')
  w.write('bin/run.sh', '#!/bin/sh\necho hi\n', 0o755)
  fs.symlinkSync('../src/p1/m1/f1.ts', w.p('bin/link.ts'))
}

function ctxFor(root: string, prior?: RootState, memo?: ListingMemo, levels?: LevelCache): ScanContext {
  return {
    rootAbs: root,
    memo,
    rules: new ExcludeRules(root, ['cache/'], true, [], levels),
    blobs: null as never, // the walk never reads content; hashing is a later phase
    maxFileBytes: 1 << 30,
    prior,
    trustStatBefore: Infinity, // compares the two walks, not the racy rule
    ctimeTrustBefore: -Infinity,
    stats: { filesScanned: 0, filesHashed: 0, bytesHashed: 0, bytesWritten: 0, notCheckpointed: [], warnings: [] },
    progress: { filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0 },
  }
}

const asObject = (s: RootState) => Object.fromEntries([...s].sort(([a], [b]) => (a < b ? -1 : 1)))

describe('walking a large root with stat workers', () => {
  it('records exactly what the one-thread walk records (paths, types, modes, sizes, mtimes, inodes, links, excludes)', async () => {
    const w = await workspace({ statWorkers: 0 })
    bigTree(w)
    w.write('cache/c.bin', 'excluded by a user pattern')
    const pool = twoWorkers()
    const one = walkRoot(ctxFor(w.ws))
    const pooled = await walkRootPooled(ctxFor(w.ws), pool)
    expect(pooled.state.size).toBeGreaterThan(2400)
    expect(asObject(pooled.state)).toEqual(asObject(one.state))
    expect(pooled.pending.map((p) => p.key).sort()).toEqual(one.pending.map((p) => p.key).sort())
    expect(pooled.state.has('src/p3/keep.log')).toBe(true)
    for (const gone of ['build/out0.js', 'debug.log', 'src/p3/generated/g.ts', 'cache/c.bin']) expect(pooled.state.has(gone)).toBe(false)
    expect(pooled.state.get('bin/link.ts')).toMatchObject({ type: 'symlink', link: '../src/p1/m1/f1.ts' })
    expect(pooled.state.get('bin/run.sh')!.mode & 0o777).toBe(0o755)
  })

  it('a turn in a large folder: every edit, creation, deletion, chmod and file-to-folder swap is found and rolled back', async () => {
    const w = await workspace({ watch: false }) // walks, not watcher events, are under test
    bigTree(w)
    w.settle()
    const first = await w.store.capture('s/m1')
    expect(first.statWorkers).toBe(0) // nothing recorded yet: the first walk stays on this thread
    await w.store.seal('s/m1')
    const pre = await w.store.capture('s/m2')
    expect(pre.statWorkers).toBeGreaterThan(0)
    w.write('src/p0/m0/f0.ts', 'edited by the turn\n')
    w.write('src/p5/m2/new.ts', 'created by the turn\n')
    fs.rmSync(w.p('src/p2/m2/f2.ts'))
    const mode0 = fs.statSync(w.p('src/p4/m4/f4.ts')).mode & 0o777
    fs.chmodSync(w.p('src/p4/m4/f4.ts'), 0o600)
    fs.rmSync(w.p('src/p6/m6/f6.ts'))
    w.write('src/p6/m6/f6.ts/inside.ts', 'a folder where a file was')
    const sealed = await w.store.seal('s/m2')
    expect(sealed.statWorkers).toBeGreaterThan(0)
    // The edit, the two new files, and the chmod'ed file: a mode change moves the ctime, as an
    // equal-size edit with its mtime put back does, so it is read again. The rest: by metadata.
    expect(sealed.filesHashed).toBe(4)
    const changes = await w.store.changes('s/m2')
    const byPath = Object.fromEntries(changes.map((c) => [c.path, c.change]))
    expect(byPath).toMatchObject({
      'src/p0/m0/f0.ts': 'modified',
      'src/p5/m2/new.ts': 'added',
      'src/p2/m2/f2.ts': 'deleted',
      'src/p4/m4/f4.ts': 'mode',
      'src/p6/m6/f6.ts': 'type',
    })
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m2' }))
    expect(res.status).toBe('done')
    expect(w.text('src/p0/m0/f0.ts')).toBe('export const v0 = 0\n')
    expect(w.exists('src/p5/m2/new.ts')).toBe(false)
    expect(w.text('src/p2/m2/f2.ts')).toBe('export const v2 = 2\n')
    expect(fs.statSync(w.p('src/p4/m4/f4.ts')).mode & 0o777).toBe(mode0)
    expect(w.text('src/p6/m6/f6.ts')).toBe('export const v6 = 6\n')
  })

  it('a worker that dies mid-walk costs nothing: its batch is lstat-ed on this thread and the record is complete', async () => {
    const w = await workspace({ statWorkers: 0 })
    bigTree(w)
    const real = twoWorkers()
    let calls = 0
    // Every other batch fails as a crashed worker's would.
    const flaky = { stat: (batch: StatBatch) => (++calls % 2 === 0 ? Promise.reject(new Error('stat worker exited with code 1')) : real.stat(batch)) }
    const one = walkRoot(ctxFor(w.ws))
    const pooled = await walkRootPooled(ctxFor(w.ws), flaky)
    expect(calls).toBeGreaterThan(1)
    expect(asObject(pooled.state)).toEqual(asObject(one.state))
  })

  it('a file replaced by a folder between the listing and its lstat is walked as a folder, with the rules in force there', async () => {
    const w = await workspace({ statWorkers: 0 })
    bigTree(w)
    w.write('src/p3/late', 'a file when listed')
    const real = twoWorkers()
    let swapped = false
    const racing = {
      stat: (batch: StatBatch) => {
        if (!swapped && batch.prefixes.includes(w.p('src/p3') + path.sep) && batch.names.includes('late')) {
          swapped = true
          fs.rmSync(w.p('src/p3/late'))
          w.write('src/p3/late/inner.ts', 'inside the new folder')
          w.write('src/p3/late/generated/skip.ts', 'excluded by src/p3/.gitignore')
          w.write('src/p3/late/trace.log', 'excluded by the root .gitignore')
        }
        return real.stat(batch)
      },
    }
    const pooled = await walkRootPooled(ctxFor(w.ws), racing)
    expect(swapped).toBe(true)
    expect(pooled.state.get('src/p3/late')?.type).toBe('dir')
    expect(pooled.state.get('src/p3/late/inner.ts')?.type).toBe('file')
    expect(pooled.state.has('src/p3/late/generated/skip.ts')).toBe(false)
    expect(pooled.state.has('src/p3/late/trace.log')).toBe(false)
    // Same paths and types as a walk of the tree as it is now (src/p3's mtime moved on with the swap).
    const types = (st: RootState) => [...st].map(([k, e]) => `${k}:${e.type}`).sort()
    expect(types(pooled.state)).toEqual(types(walkRoot(ctxFor(w.ws)).state))
  })

  it('a reopened store walks with a fresh pool; a closed pool refuses work (its callers lstat on their own thread)', async () => {
    const w = await workspace({ watch: false }) // walks, not watcher events, are under test
    bigTree(w)
    w.settle()
    await w.store.capture('s/m1')
    await w.store.seal('s/m1')
    await w.reopen() // closing the store closed its pool
    w.write('src/p0/m0/f0.ts', 'changed while the app was closed\n')
    const again = await w.store.capture('s/m2')
    expect(again.statWorkers).toBeGreaterThan(0)
    expect(again.filesHashed).toBe(1)
    const pool = new StatPool(1)
    await pool.close()
    await expect(pool.stat({ prefixes: [w.ws + path.sep], counts: [1], names: ['debug.log'] })).rejects.toThrow(/unavailable/)
    expect(pool.usable).toBe(false)
  })
})

describe('one stat pool for the whole process', () => {
  it('stores share it: one store closing leaves it working for the others; the last one closes it', async () => {
    const a = acquireStatPool(3)
    const b = acquireStatPool(3)
    expect(b).toBe(a)
    const w = await workspace({ statWorkers: 0 })
    w.write('x.txt', 'x')
    const batch = { prefixes: [w.ws + path.sep], counts: [1], names: ['x.txt'] }
    await releaseStatPool(a)
    expect((await b.stat(batch))[1]).toBe(1) // the size of x.txt
    await releaseStatPool(b)
    expect(b.usable).toBe(false)
    const c = acquireStatPool(3)
    expect(c).not.toBe(a) // a fresh pool once the old one is gone
    await releaseStatPool(c)
  })

  it('a broken pool is not handed to the next store', async () => {
    const a = acquireStatPool(3)
    await a.close() // as when a worker dies
    const b = acquireStatPool(3)
    expect(b).not.toBe(a)
    expect(b.usable).toBe(true)
    await releaseStatPool(a)
    expect(b.usable).toBe(true) // releasing the broken one does not touch its replacement
    await releaseStatPool(b)
  })
})

describe('folder listings reused between walks', () => {
  it('a listing stands only for the same folder (inode) with the same mtime and ctime, both well before it was listed', () => {
    const listedAt = 1_000_000
    const old = listedAt - RACY_MARGIN_MS - 1
    const was = { ino: 7, mtimeMs: old, ctimeMs: old, listedAt }
    expect(listingStillValid(was, { ino: 7, mtimeMs: old, ctimeMs: old })).toBe(true)
    expect(listingStillValid(was, { ino: 7, mtimeMs: old + 0.001, ctimeMs: old + 0.001 })).toBe(false) // an entry came or went
    expect(listingStillValid(was, { ino: 7, mtimeMs: old, ctimeMs: old + 5 })).toBe(false) // … and the mtime was set back
    expect(listingStillValid(was, { ino: 8, mtimeMs: old, ctimeMs: old })).toBe(false) // another folder under the name
    // Changed within the margin before the listing: a later change in the same clock tick would
    // leave the same times, so the folder is listed again.
    const recent = listedAt - 10
    expect(listingStillValid({ ino: 7, mtimeMs: recent, ctimeMs: recent, listedAt }, { ino: 7, mtimeMs: recent, ctimeMs: recent })).toBe(false)
    expect(listingStillValid({ ino: 7, mtimeMs: old, ctimeMs: recent, listedAt }, { ino: 7, mtimeMs: old, ctimeMs: recent })).toBe(false)
  })

  it('folders on network file systems (NFS, SMB, sshfs, 9p) are always listed: their times may come from another machine', () => {
    expect(listingsTrustedOn(0xef53, 'linux')).toBe(true) // ext4
    expect(listingsTrustedOn(0x01021994, 'linux')).toBe(true) // tmpfs
    for (const remote of [0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x65735546, 0x01021997]) expect(listingsTrustedOn(remote, 'linux')).toBe(false)
    expect(listingsTrustedOn(undefined, 'linux')).toBe(false) // cannot tell: list
    expect(listingsTrustedOn(fs.statfsSync(os.tmpdir()).type)).toBe(true) // where these tests run
  })

  it('a tree unchanged since long before the last walk is walked from remembered listings; a folder an entry was added to or removed from is listed again', async () => {
    const w = await workspace({ statWorkers: 0 })
    bigTree(w)
    const memo = new ListingMemo()
    await anHourLater(() => {
      const first = walkRoot(ctxFor(w.ws, undefined, memo))
      const folders = [...first.state.values()].filter((e) => e.type === 'dir').length
      expect(memo.listed).toBe(folders + 1) // every folder, and the root
      const again = walkRoot(ctxFor(w.ws, first.state, memo))
      expect(memo.reused).toBe(folders + 1)
      expect(memo.listed).toBe(0)
      expect(asObject(again.state)).toEqual(asObject(first.state))
      w.write('src/p2/m1/added.ts', 'new')
      fs.rmSync(w.p('src/p9/m3/f213.ts'))
      const third = walkRoot(ctxFor(w.ws, again.state, memo))
      expect(memo.listed).toBe(2) // the two changed folders
      expect(third.state.has('src/p2/m1/added.ts')).toBe(true)
      expect(third.state.has('src/p9/m3/f213.ts')).toBe(false)
    })
  })

  it('a folder filled and then given its old mtime back (tar, rsync -a, cp -p) is listed again: the new file is found and rolled back', async () => {
    const w = await workspace({ watch: false }) // walks, not watcher events, are under test
    bigTree(w)
    const folder = w.p('src/p1/m1')
    const longAgo = (Date.now() - 86_400_000) / 1000
    fs.utimesSync(folder, longAgo, longAgo)
    const mtime = fs.statSync(folder).mtimeMs
    await anHourLater(async () => {
      await w.store.capture('s/m1')
      await w.store.seal('s/m1')
      await w.store.capture('s/m2') // the listing of src/p1/m1 is remembered and trusted from here on
      w.write('src/p1/m1/extracted.ts', 'unpacked by the turn')
      fs.utimesSync(folder, longAgo, longAgo)
      expect(fs.statSync(folder).mtimeMs).toBe(mtime)
      const sealed = await w.store.seal('s/m2')
      expect(sealed.statWorkers).toBeGreaterThan(0)
      expect((await w.store.changes('s/m2')).map((c) => c.path)).toEqual(['src/p1/m1/extracted.ts'])
      await w.store.apply(await w.store.plan({ turnKey: 's/m2' }))
    })
    expect(w.exists('src/p1/m1/extracted.ts')).toBe(false)
  })

  it('decisions of the exclude rules are reused while every .gitignore above a folder is unchanged; an edited one is applied at once', async () => {
    const w = await workspace({ statWorkers: 0 })
    bigTree(w)
    const memo = new ListingMemo()
    const levels = new LevelCache()
    const judged = vi.spyOn(ExcludeRules.prototype, 'excluded')
    try {
      await anHourLater(() => {
        const first = walkRoot(ctxFor(w.ws, undefined, memo, levels))
        expect(judged.mock.calls.length).toBeGreaterThan(2400)
        judged.mockClear()
        const again = walkRoot(ctxFor(w.ws, first.state, memo, levels))
        expect(judged).not.toHaveBeenCalled()
        expect(asObject(again.state)).toEqual(asObject(first.state))
        // Rewritten in place (its folder's listing stays remembered): the new rules apply below it.
        fs.writeFileSync(w.p('src/p3/.gitignore'), 'generated/\n!keep.log\nm1/\n')
        const edited = walkRoot(ctxFor(w.ws, again.state, memo, levels))
        expect(judged).toHaveBeenCalled()
        const under = (st: RootState, dir: string) => [...st.keys()].filter((k) => k.startsWith(dir)).length
        expect(under(edited.state, 'src/p3/m1/')).toBe(0)
        expect(under(edited.state, 'src/p4/m1/')).toBe(under(again.state, 'src/p4/m1/')) // other folders' rules did not change
        fs.writeFileSync(w.p('.gitignore'), 'build/\n') // *.log no longer ignored at the root
        const root = walkRoot(ctxFor(w.ws, edited.state, memo, levels))
        expect(root.state.has('debug.log')).toBe(true)
        expect(under(root.state, 'src/p3/m1/')).toBe(0)
      })
    } finally {
      judged.mockRestore()
    }
  })
})
