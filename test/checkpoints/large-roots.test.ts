// A full walk of a large root finds every kind of change a turn makes, an entry added to a folder
// whose mtime was then set back included, and applies an edited .gitignore at once (its matcher
// is kept between walks only while its text is the same).
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ExcludeRules, LevelCache } from '../../core/checkpoints/store/excludes'
import { noStats, walkRoot } from '../../core/checkpoints/capture/scanner'
import type { ScanContext } from '../../core/checkpoints/capture/scanner'
import type { RootState } from '../../core/checkpoints/store/snapshot-deltas'
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

function ctxFor(root: string, prior?: RootState, levels?: LevelCache): ScanContext {
  return {
    rootAbs: root,
    rules: new ExcludeRules(root, ['cache/'], true, [], levels),
    blobs: null as never, // the walk never reads content; hashing is a later phase
    maxFileBytes: 1 << 30,
    prior,
    trustStatBefore: Infinity, // compares the two walks, not the racy rule
    ctimeTrustBefore: -Infinity,
    stats: noStats(),
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

describe('walks that follow one another', () => {
  it('a folder filled and then given its old mtime back (tar, rsync -a, cp -p) is walked: the new file is found and rolled back', async () => {
    const w = await workspace({ watch: false }) // walks, not watcher events, are under test
    bigTree(w)
    const folder = w.p('src/p1/m1')
    const longAgo = (Date.now() - 86_400_000) / 1000
    fs.utimesSync(folder, longAgo, longAgo)
    const mtime = fs.statSync(folder).mtimeMs
    await anHourLater(async () => {
      await w.store.capture('s/m1')
      await w.store.seal('s/m1')
      await w.store.capture('s/m2')
      w.write('src/p1/m1/extracted.ts', 'unpacked by the turn')
      fs.utimesSync(folder, longAgo, longAgo)
      expect(fs.statSync(folder).mtimeMs).toBe(mtime)
      await w.store.seal('s/m2')
      expect((await w.store.changes('s/m2')).map((c) => c.path)).toEqual(['src/p1/m1/extracted.ts'])
      await w.store.apply(await w.store.plan({ turnKey: 's/m2' }))
    })
    expect(w.exists('src/p1/m1/extracted.ts')).toBe(false)
  })

  it('an edited .gitignore is applied at the next walk, in its own folder and below', async () => {
    const w = await workspace()
    bigTree(w)
    const levels = new LevelCache()
    const first = walkRoot(ctxFor(w.ws, undefined, levels))
    const again = walkRoot(ctxFor(w.ws, first.state, levels))
    expect(asObject(again.state)).toEqual(asObject(first.state))
    fs.writeFileSync(w.p('src/p3/.gitignore'), 'generated/\n!keep.log\nm1/\n')
    const edited = walkRoot(ctxFor(w.ws, again.state, levels))
    const under = (st: RootState, dir: string) => [...st.keys()].filter((k) => k.startsWith(dir)).length
    expect(under(edited.state, 'src/p3/m1/')).toBe(0)
    expect(under(edited.state, 'src/p4/m1/')).toBe(under(again.state, 'src/p4/m1/')) // other folders' rules did not change
    fs.writeFileSync(w.p('.gitignore'), 'build/\n') // *.log no longer ignored at the root
    const root = walkRoot(ctxFor(w.ws, edited.state, levels))
    expect(root.state.has('debug.log')).toBe(true)
    expect(under(root.state, 'src/p3/m1/')).toBe(0)
  })
})
