// Nothing lost, ever: each case here deleted or overwrote a user's file before its fix.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { anHourLater, seededBytes, sha, workspace } from './helpers'

describe('coverage changes mid-turn (class 1)', () => {
  it('a file the capture did not cover is never deleted when the turn un-ignores it', async () => {
    const w = await workspace()
    w.write('.gitignore', '.env\nbuild/\n')
    w.write('.env', 'SECRET=mine')
    w.write('build/out.js', 'built by the user')
    w.write('src/a.ts', 'a0')
    await w.store.capture('s/m1')
    // The turn rewrites .gitignore (now .env and build/ are covered) and edits a source file.
    w.write('.gitignore', 'node_modules/\n')
    w.write('src/a.ts', 'a1')
    w.write('src/new.ts', 'created by the turn')
    await w.store.seal('s/m1')

    const plan = await w.store.plan({ turnKey: 's/m1' })
    const byPath = Object.fromEntries(plan.actions.map((a) => [a.path, a]))
    expect(byPath['.env']).toMatchObject({ kind: 'not-checkpointed', reason: expect.stringMatching(/not checkpointed before this turn/) })
    expect(byPath['build/out.js']?.kind).toBe('not-checkpointed')
    expect(byPath['src/new.ts']?.kind).toBe('delete')
    const res = await w.store.apply(plan)
    expect(res.failed).toEqual([])
    expect(w.text('.env')).toBe('SECRET=mine')
    expect(w.text('build/out.js')).toBe('built by the user')
    expect(w.exists('src/new.ts')).toBe(false)
    expect(w.text('src/a.ts')).toBe('a0')
    expect(w.text('.gitignore')).toBe('.env\nbuild/\n')
  })

  it('a nested .gitignore and its re-includes are judged as they were at the capture', async () => {
    const w = await workspace()
    w.write('pkg/.gitignore', '*.log\n!keep.log\n')
    w.write('pkg/debug.log', 'user log')
    w.write('pkg/keep.log', 'k0')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('pkg/.gitignore'))
    w.write('pkg/keep.log', 'k1')
    w.write('pkg/turn.log', 'made by the turn, excluded before: kept too')
    await w.store.seal('s/m1')
    await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(w.text('pkg/debug.log')).toBe('user log')
    expect(w.text('pkg/keep.log')).toBe('k0')
    expect(w.text('pkg/.gitignore')).toBe('*.log\n!keep.log\n')
    expect(w.exists('pkg/turn.log')).toBe(true)
  })

  it('a folder the capture covered and did not hold proves everything in it new: the turn’s files there go, even ones the rules then excluded', async () => {
    const w = await workspace()
    w.write('.gitignore', '*.log\n')
    w.write('old/debug.log', 'the user’s log, never checkpointed')
    await w.store.capture('s/m1')
    // The turn stops ignoring logs and makes a folder with a log in it, next to the user's.
    w.write('.gitignore', '')
    w.write('fresh/deep/run.log', 'written by the turn')
    w.write('old/turn.log', 'written by the turn where the user’s log is')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const kinds = Object.fromEntries(plan.actions.map((a) => [a.path, a.kind]))
    expect(kinds).toMatchObject({
      fresh: 'delete',
      'fresh/deep': 'delete',
      'fresh/deep/run.log': 'delete',
      'old/turn.log': 'not-checkpointed',
      'old/debug.log': 'not-checkpointed',
    })
    const res = await w.store.apply(plan)
    expect(res.failed).toEqual([])
    expect(w.exists('fresh')).toBe(false)
    expect(w.text('old/debug.log')).toBe('the user’s log, never checkpointed')
    expect(w.exists('old/turn.log')).toBe(true) // it may have been there before the turn: left as is
  })

  it('on a case-insensitive root a folder missing only in its case proves nothing: "Foo/x.log" may be the user’s "foo/x.log", and is left', async () => {
    const w = await workspace({ roots: (ws) => [{ path: ws, caseInsensitive: true }] })
    w.write('.gitignore', '*.log\n')
    w.write('foo/keep.txt', 'k')
    await w.store.capture('s/m1')
    w.write('.gitignore', '')
    w.write('Foo/x.log', 'seen first by the seal')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.find((a) => a.path === 'Foo/x.log')?.kind).toBe('not-checkpointed')
    await w.store.apply(plan)
    expect(w.text('Foo/x.log')).toBe('seen first by the seal')
  })

  it('exclude rules the user changes during a turn do not make untracked files look created', async () => {
    const w = await workspace({ roots: (ws) => [{ path: ws, excludes: ['data/'] }] })
    w.write('data/big.csv', 'user data')
    w.write('a.txt', 'a0')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a1')
    // The user drops the pattern mid-turn (Settings reopen the store with the new rules).
    await w.reopen({ roots: [{ path: w.ws }] })
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.find((a) => a.path === 'data/big.csv')?.kind).toBe('not-checkpointed')
    await w.store.apply(plan)
    expect(w.text('data/big.csv')).toBe('user data')
    expect(w.text('a.txt')).toBe('a0')
  })

  it('an extra folder added during a turn is not emptied by its restore', async () => {
    const w = await workspace()
    const extra = path.join(w.dir, 'extra')
    fs.mkdirSync(extra)
    fs.writeFileSync(path.join(extra, 'notes.md'), 'the user’s notes')
    w.write('a.txt', 'a0')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a1')
    await w.reopen({ roots: [{ path: w.ws }, { path: extra }] })
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.find((a) => a.path === 'notes.md')?.kind).toBe('not-checkpointed')
    await w.store.apply(plan)
    expect(fs.readFileSync(path.join(extra, 'notes.md'), 'utf8')).toBe('the user’s notes')
    expect(w.text('a.txt')).toBe('a0')
  })
})

/** This second, whole: what a file system with 1 s timestamps records for writes within it. */
const TICK = Math.floor(Date.now() / 1000)
function coarse(file: string, seconds: number): void {
  fs.utimesSync(file, seconds, seconds)
}

describe('change detection that trusts stat (class 4)', () => {
  it('a user edit of equal size within the same timestamp tick is a conflict, never overwritten', async () => {
    const w = await workspace()
    w.write('a.txt', 'aaaa')
    await w.store.capture('s/m1')
    w.write('a.txt', 'bbbb') // the turn
    coarse(w.p('a.txt'), TICK)
    await w.store.seal('s/m1')
    // The user's editor writes the same number of bytes in place within the same (1 s) tick.
    fs.writeFileSync(w.p('a.txt'), 'MINE')
    coarse(w.p('a.txt'), TICK)

    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions).toEqual([expect.objectContaining({ path: 'a.txt', kind: 'conflict', reason: 'edited since the turn' })])
    const res = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(res.applied).toEqual([])
    expect(w.text('a.txt')).toBe('MINE')
  })

  it('overwriting a same-stat edit on the user’s say keeps it for undo, byte-exact', async () => {
    const w = await workspace()
    w.write('a.txt', 'aaaa')
    await w.store.capture('s/m1')
    w.write('a.txt', 'bbbb')
    coarse(w.p('a.txt'), TICK)
    await w.store.seal('s/m1')
    fs.writeFileSync(w.p('a.txt'), 'MINE')
    coarse(w.p('a.txt'), TICK)
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const res = await w.store.apply(plan, { overwrite: [plan.actions[0]!.id] })
    expect(w.text('a.txt')).toBe('aaaa')
    await w.store.undo(res.restoreId!)
    expect(w.text('a.txt')).toBe('MINE')
  })

  it('a turn’s equal-size write in the same timestamp tick as the capture is seen (racy entries are re-read)', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    coarse(w.p('a.txt'), TICK)
    await w.store.capture('s/m1')
    // Same size, same inode, and (coarse timestamps) the same mtime as at the capture.
    fs.writeFileSync(w.p('a.txt'), 'a1')
    coarse(w.p('a.txt'), TICK)
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.map((a) => [a.path, a.kind])).toEqual([['a.txt', 'restore']])
    await w.store.apply(plan)
    expect(w.text('a.txt')).toBe('a0')
  })
})

describe('change detection that trusts stat (class 4), an old mtime', () => {
  it('a file with an old mtime, captured right after it was written, then edited at equal size with the mtime put back: seen', async () => {
    const w = await workspace()
    const old = Math.floor(Date.now() / 1000) - 600 // unpacked from an archive, or `touch -d`
    w.write('a.txt', 'a0')
    coarse(w.p('a.txt'), old)
    await w.store.capture('s/m1')
    fs.writeFileSync(w.p('a.txt'), 'a1') // same size, same inode
    coarse(w.p('a.txt'), old) // and the same mtime: only the ctime moved
    await w.store.seal('s/m1')
    expect((await w.store.changes('s/m1')).map((c) => c.path)).toEqual(['a.txt'])
    await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(w.text('a.txt')).toBe('a0')
  })
})

describe('a broken store never plans a delete it cannot prove (class 5)', () => {
  it('a lost snapshot file: the turns after it are not restorable, and nothing that existed is deleted', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    w.write('b.txt', 'b0')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a1')
    await w.store.seal('s/m1')
    await w.store.capture('s/m2') // the same pre-image as m1's seal: a delta holding only a.txt
    w.write('b.txt', 'b1')
    await w.store.seal('s/m2')
    const snaps = fs.readdirSync(path.join(w.storeDir, 'snapshots')).sort()
    expect(snaps.length).toBe(3)
    fs.rmSync(path.join(w.storeDir, 'snapshots', snaps[0]!)) // the full base is gone
    await w.reopen()
    expect(w.store.warnings.join('\n')).toMatch(/snapshot chain broken/)

    const plan = await w.store.plan({ turnKey: 's/m2' })
    expect(plan.actions.filter((a) => a.kind === 'delete')).toEqual([])
    expect(plan.warnings.join('\n')).toMatch(/missing or unreadable; nothing will be restored/)
    await w.store.apply(plan)
    expect(w.text('b.txt')).toBe('b1')
    expect(w.text('a.txt')).toBe('a1')

    // New turns work again from a fresh full capture, and survive retention's compaction.
    await w.store.capture('s/m3')
    w.write('c.txt', 'made by m3')
    w.write('a.txt', 'a3')
    await w.store.seal('s/m3')
    await w.store.retention({ maxCountPerSession: 1 })
    await w.reopen()
    const p3 = await w.store.plan({ turnKey: 's/m3' })
    expect(Object.fromEntries(p3.actions.map((a) => [a.path, a.kind]))).toEqual({ 'a.txt': 'restore', 'c.txt': 'delete' })
    await w.store.apply(p3)
    expect(w.text('a.txt')).toBe('a1')
    expect(w.text('b.txt')).toBe('b1')
    expect(w.exists('c.txt')).toBe(false)
  })

  it('a lost blob: the plan says the file cannot be restored instead of failing half-way', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    w.write('keep.txt', 'k')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a1')
    w.write('new.txt', 'made by the turn')
    await w.store.seal('s/m1')
    for (const d of ['blobs', 'packs']) fs.rmSync(path.join(w.storeDir, d), { recursive: true, force: true })
    await w.reopen()
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const byPath = Object.fromEntries(plan.actions.map((a) => [a.path, a]))
    expect(byPath['a.txt']).toMatchObject({ kind: 'not-checkpointed', reason: expect.stringMatching(/cannot restore/) })
    expect(byPath['new.txt']?.kind).toBe('delete')
    const res = await w.store.apply(plan)
    expect(res.failed).toEqual([])
    expect(w.text('a.txt')).toBe('a1')
    expect(w.exists('new.txt')).toBe(false)
  })

  it('verify names every damaged or missing checkpoint file; repair moves damaged content aside and drops only what nothing needs', async () => {
    const w = await workspace()
    const big = (seed: number) => seededBytes(seed, (1 << 20) + 17) // stored as its own file, not packed
    w.write('big.bin', big(1))
    w.write('lost.bin', big(2))
    w.write('small.txt', 's0')
    await w.store.capture('s/m1')
    w.write('big.bin', big(3))
    w.write('lost.bin', big(4))
    w.write('small.txt', 's1')
    await w.store.seal('s/m1')
    expect(await w.store.verify()).toMatchObject({ ok: true, missing: [], damaged: [], brokenTurns: [], unreachableBlobs: 0 })

    // One blob flipped on disk, one deleted, and one that nothing refers to.
    const blobFile = (content: Buffer) => {
      const h = sha(content)
      return path.join(w.storeDir, 'blobs', h.slice(0, 2), h)
    }
    const flipped = fs.readFileSync(blobFile(big(1)))
    flipped[1000] = flipped[1000]! ^ 0xff
    fs.writeFileSync(blobFile(big(1)), flipped)
    fs.rmSync(blobFile(big(2)))
    fs.writeFileSync(path.join(path.dirname(blobFile(big(3))), sha('nothing refers to this')), 'nothing refers to this')

    const report = await w.store.verify()
    expect(report.ok).toBe(false)
    expect(report.damaged).toEqual([expect.objectContaining({ path: 'big.bin', hash: sha(big(1)) })])
    expect(report.missing).toEqual([expect.objectContaining({ path: 'lost.bin', hash: sha(big(2)) })])
    expect(report.unreachableBlobs).toBe(1)
    expect(report.repaired).toBeNull()

    const fixed = await w.store.verify({ repair: true })
    expect(fixed.repaired).toMatchObject({ blobsSwept: 1, damagedMovedAside: 1 })
    expect(fs.existsSync(path.join(w.storeDir, 'damaged', sha(big(1))))).toBe(true) // kept for a human, not deleted
    // Every turn is still there; the plan now says up front what cannot come back.
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const byPath = Object.fromEntries(plan.actions.map((a) => [a.path, a]))
    expect(byPath['big.bin']).toMatchObject({ kind: 'not-checkpointed', reason: expect.stringMatching(/cannot restore/) })
    expect(byPath['lost.bin']).toMatchObject({ kind: 'not-checkpointed', reason: expect.stringMatching(/cannot restore/) })
    expect(byPath['small.txt']?.kind).toBe('restore')
    const res = await w.store.apply(plan)
    expect(res.failed).toEqual([])
    expect(w.text('small.txt')).toBe('s0')
    expect(w.sha('big.bin')).toBe(sha(big(3)))
  })
})

describe('overlapping turns of two sessions on one folder (class 9)', () => {
  it('retaking A keeps what B did while A ran, and rolls back what A did outside that window', async () => {
    const w = await workspace()
    w.write('shared.txt', 's0')
    w.write('a.txt', 'a0')
    w.write('gone.txt', 'deleted by B')
    await w.store.capture('sesA/m1') // A starts
    w.write('early.txt', 'written by A before B started')
    await w.store.capture('sesB/m1') // B starts while A runs
    w.write('b-new.txt', 'created by B')
    w.write('shared.txt', 's-by-B')
    fs.rmSync(w.p('gone.txt'))
    await w.store.seal('sesB/m1') // B ends
    w.write('a.txt', 'a1') // A, after B ended
    await w.store.seal('sesA/m1')

    const plan = await w.store.plan({ turnKey: 'sesA/m1' })
    const kinds = Object.fromEntries(plan.actions.map((a) => [a.path, a.kind]))
    expect(kinds).toEqual({ 'a.txt': 'restore', 'early.txt': 'delete', 'b-new.txt': 'conflict', 'shared.txt': 'conflict', 'gone.txt': 'conflict' })
    expect(plan.actions.find((a) => a.path === 'b-new.txt')!.reason).toMatch(/changed while session sesB was running/)
    // The default keeps them: A's own changes are rolled back, B's work stays.
    const res = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(res.failed).toEqual([])
    expect(w.text('a.txt')).toBe('a0')
    expect(w.exists('early.txt')).toBe(false)
    expect(w.text('b-new.txt')).toBe('created by B')
    expect(w.text('shared.txt')).toBe('s-by-B')
    expect(w.exists('gone.txt')).toBe(false)
  })

  it('a file the user chooses to roll back anyway is, and B still running counts as overlapping', async () => {
    const w = await workspace()
    w.write('x.txt', 'x0')
    await w.store.capture('sesA/m1')
    await w.store.capture('sesB/m1') // B is still running when A is retaken
    w.write('x.txt', 'x1')
    w.write('y.txt', 'new')
    await w.store.seal('sesA/m1')
    const plan = await w.store.plan({ turnKey: 'sesA/m1' })
    expect(plan.actions.every((a) => a.kind === 'conflict')).toBe(true)
    const x = plan.actions.find((a) => a.path === 'x.txt')!
    await w.store.apply(plan, { onConflict: 'restore-rest', overwrite: [x.id] })
    expect(w.text('x.txt')).toBe('x0')
    expect(w.text('y.txt')).toBe('new')
  })

  it('B inside A with no change around it: the same snapshots for both, still told apart', async () => {
    const w = await workspace()
    w.write('x.txt', 'x0')
    await w.store.capture('sesA/m1')
    await w.store.capture('sesB/m2') // nothing changed: the same pre-image id as A's
    w.write('b.txt', 'made by B')
    await w.store.seal('sesB/m2')
    await w.store.seal('sesA/m1') // nothing changed since B's seal: the same id again
    const plan = await w.store.plan({ turnKey: 'sesA/m1' })
    expect(plan.actions.map((a) => [a.path, a.kind])).toEqual([['b.txt', 'conflict']])
    await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(w.text('b.txt')).toBe('made by B')
  })

  it('turns that did not overlap are restored as before', async () => {
    const w = await workspace()
    w.write('b.txt', 'b0')
    await w.store.capture('sesB/m1')
    w.write('b.txt', 'b1')
    await w.store.seal('sesB/m1')
    await w.store.capture('sesA/m1')
    w.write('a.txt', 'made by A')
    await w.store.seal('sesA/m1')
    const plan = await w.store.plan({ turnKey: 'sesA/m1' })
    expect(plan.actions.map((a) => [a.path, a.kind])).toEqual([['a.txt', 'delete']])
  })
})

describe('a project opened through a symlink (class 2)', () => {
  it('new files at the top of a linked root are seen, so the restore removes them', async () => {
    const w = await workspace({
      roots: (ws, dir) => {
        fs.symlinkSync(ws, path.join(dir, 'linked'))
        return [{ path: path.join(dir, 'linked') }]
      },
    })
    w.write('a.txt', 'a0')
    w.write('src/b.txt', 'b0')
    w.settle()
    await anHourLater(() => w.store.capture('s/m0'))
    await anHourLater(() => w.store.seal('s/m0'))
    await anHourLater(() => w.store.capture('s/m1'))
    w.write('new-at-top.txt', 'created by the turn')
    w.write('a.txt', 'a1')
    const sealed = await anHourLater(() => w.store.seal('s/m1'))
    expect(sealed.filesHashed).toBeGreaterThan(0)
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(Object.fromEntries(plan.actions.map((a) => [a.path, a.kind]))).toEqual({ 'a.txt': 'restore', 'new-at-top.txt': 'delete' })
    await w.store.apply(plan)
    expect(w.exists('new-at-top.txt')).toBe(false)
    expect(w.text('a.txt')).toBe('a0')
  })
})

describe('robustness', () => {
  it('a file rewritten while the capture reads it is read again: the checkpoint holds one whole version, never a mix', async () => {
    const w = await workspace()
    const v1 = seededBytes(1, 5 << 20)
    const v2 = seededBytes(2, 5 << 20)
    w.write('data.bin', v1)
    let rewritten = false
    await w.store.capture('s/m1', {
      onProgress: (p) => {
        // Mid-read (the first MB is in): the user's tool saves a new version of the file.
        if (!rewritten && p.phase === 'hash' && p.bytesDone > 0 && p.bytesDone < p.bytesTotal) {
          rewritten = true
          fs.writeFileSync(w.p('data.bin'), v2)
        }
      },
    })
    expect(rewritten).toBe(true)
    w.write('data.bin', 'the turn replaced it')
    await w.store.seal('s/m1')
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(res.failed).toEqual([])
    expect(w.sha('data.bin')).toBe(sha(v2))
  })

  it('a file written to all through the capture is not kept (never a torn copy to restore) and is reported', async () => {
    const w = await workspace()
    w.write('app.log', seededBytes(3, 3 << 20))
    // A logger that appends between each read of the file and the stat that checks it. (A writer
    // on its own thread missed all the capture's reads on a loaded CI machine: the file then was
    // one whole version, rightly kept.)
    let reads = 0
    const cap = await w.store.capture('s/m1', {
      afterRead: (abs) => {
        if (abs !== w.p('app.log')) return
        reads++
        fs.appendFileSync(abs, 'another line\n')
      },
    })
    expect(reads).toBeGreaterThan(1)
    expect(cap.notCheckpointed).toEqual(['app.log'])
    expect(cap.warnings.join('\n')).toMatch(/app.log was being written during the checkpoint/)
    fs.writeFileSync(w.p('app.log'), 'the turn truncated it')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions).toEqual([expect.objectContaining({ path: 'app.log', kind: 'not-checkpointed' })])
    await w.store.apply(plan)
    expect(w.text('app.log')).toBe('the turn truncated it')
  })

  it('temp files a crash left in the store are removed when it is opened', async () => {
    const w = await workspace()
    await w.store.capture('s/m1')
    await w.store.close()
    const leftovers = [path.join(w.storeDir, 'tmp', 'abc.tmp'), path.join(w.storeDir, 'snapshots', '.000000000002.json.retake-j-99-1.tmp')]
    for (const f of leftovers) fs.writeFileSync(f, Buffer.alloc(4096))
    await w.reopen()
    for (const f of leftovers) expect(fs.existsSync(f), f).toBe(false)
    expect(w.store.listTurns()).toHaveLength(1)
  })

  it('a path that became a folder right before the rename is kept: no temp file is left, and the user’s folder is intact', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a1')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const res = await w.store.apply(
      plan,
      {},
      {
        // The user's tool replaces the file by a folder between the re-check and the rename.
        beforeRename: (_tmp, target) => {
          fs.rmSync(target)
          fs.mkdirSync(target)
          fs.writeFileSync(path.join(target, 'user.txt'), 'mine')
        },
      },
    )
    // Checked again right before the rename (step-guards.ts): kept and reported, not a failure.
    expect(res.status).toBe('done')
    expect(res.failed).toEqual([])
    expect(res.skipped).toEqual([expect.objectContaining({ path: 'a.txt', reason: 'changed since the plan was made; kept as it is' })])
    expect(fs.readdirSync(w.ws).sort()).toEqual(['a.txt'])
    expect(w.text('a.txt/user.txt')).toBe('mine')
  })
})

describe('forked sessions are not other sessions', () => {
  it('retaking a turn after its session was forked restores it as before (the fork’s copies did no work of their own)', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    await w.store.capture('sesA/m1')
    w.write('a.txt', 'a1')
    w.write('new.txt', 'made by the turn')
    await w.store.seal('sesA/m1')
    expect(await w.store.forkSession('sesA', 'sesF')).toBe(1)
    for (const key of ['sesA/m1', 'sesF/m1']) {
      const plan = await w.store.plan({ turnKey: key })
      expect(Object.fromEntries(plan.actions.map((a) => [a.path, a.kind])), key).toEqual({ 'a.txt': 'restore', 'new.txt': 'delete' })
    }
  })
})
