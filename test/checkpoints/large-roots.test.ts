// What keeps a capture of a large root cheap must never make it miss a change: a walk finds every
// kind of change a turn makes in a large folder, and a folder listing reused while a folder is
// unchanged (listing-memo.ts) never hides an entry, even one added to a folder whose mtime was then
// set back.
import fs from 'node:fs'
import os from 'node:os'
import { describe, expect, it, vi } from 'vitest'
import { ExcludeRules, LevelCache } from '../../core/checkpoints/excludes'
import { ListingMemo, RACY_MARGIN_MS, listingStillValid, listingsTrustedOn } from '../../core/checkpoints/listing-memo'
import { walkRoot } from '../../core/checkpoints/scanner'
import type { RootState, ScanContext } from '../../core/checkpoints/scanner'
import { anHourLater, workspace } from './helpers'
import type { Ws } from './helpers'

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

describe('a large root walked in full', () => {
  it('a turn in a large folder: every edit, creation, deletion, chmod and file-to-folder swap is found and rolled back', async () => {
    const w = await workspace({ watch: false }) // walks, not watcher events, are under test
    bigTree(w)
    w.settle()
    await w.store.capture('s/m1')
    await w.store.seal('s/m1')
    await w.store.capture('s/m2')
    w.write('src/p0/m0/f0.ts', 'edited by the turn\n')
    w.write('src/p5/m2/new.ts', 'created by the turn\n')
    fs.rmSync(w.p('src/p2/m2/f2.ts'))
    const mode0 = fs.statSync(w.p('src/p4/m4/f4.ts')).mode & 0o777
    fs.chmodSync(w.p('src/p4/m4/f4.ts'), 0o600)
    fs.rmSync(w.p('src/p6/m6/f6.ts'))
    w.write('src/p6/m6/f6.ts/inside.ts', 'a folder where a file was')
    const sealed = await w.store.seal('s/m2')
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
    const w = await workspace()
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
      await w.store.seal('s/m2')
      expect((await w.store.changes('s/m2')).map((c) => c.path)).toEqual(['src/p1/m1/extracted.ts'])
      await w.store.apply(await w.store.plan({ turnKey: 's/m2' }))
    })
    expect(w.exists('src/p1/m1/extracted.ts')).toBe(false)
  })

  it('decisions of the exclude rules are reused while every .gitignore above a folder is unchanged; an edited one is applied at once', async () => {
    const w = await workspace()
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
