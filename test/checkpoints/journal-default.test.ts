// The change journal is on by default for a local Linux folder. These are the ways inotify can miss
// a change, each one either ruled out or made to fall back to a full walk: a write through a hard
// link from outside the root, more events than the kernel is sure to have kept, a file system
// mounted inside the root after the watches were made. (journal-blind.test.ts: what no watcher sees.)
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openCheckpointStore } from '../../core/checkpoints/index'
import { journalDecision, mountsUnder } from '../../core/checkpoints/capture/change-journal'
import { workspace, type Ws } from './helpers'

const linux = process.platform === 'linux'
const byDefault = process.env.RETAKE_CK_WATCH === undefined

/**
 * A baseline (a full walk with the journal running), then a turn whose seal the test inspects.
 * Folders made just before (within 100 ms of) a subscription are not trusted to have their watch
 * (see change-journal.ts checkFolder): idle turns until the journal answers one, a state, not a time.
 */
async function baseline(w: Ws, next = 's/m1', tag = 'b'): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await w.store.capture(`s/${tag}${i}`)
    if ((await w.store.seal(`s/${tag}${i}`)).mode === 'watched') break
  }
  await w.store.capture(next)
}

describe('Which folders get a change journal', () => {
  it('on by default for a local Linux file system; off for network and FUSE ones, and off the platforms CI does not run', () => {
    expect(journalDecision('auto', 'linux', 0xef53).on).toBe(true)
    expect(journalDecision('auto', 'linux', 0x01021994).on).toBe(true) // tmpfs
    const nfs = journalDecision('auto', 'linux', 0x6969)
    expect(nfs.on).toBe(false)
    expect(nfs.why).toMatch(/not on a local file system \(type 0x6969\)/)
    expect(journalDecision('auto', 'linux', 0x65735546).on).toBe(false) // FUSE (sshfs, virtiofs)
    expect(journalDecision('auto', 'linux', null).on).toBe(false) // statfs failed: nothing proven
    expect(journalDecision('auto', 'darwin', 0x1a).on).toBe(false)
    expect(journalDecision(true, 'darwin', null).on).toBe(true)
    expect(journalDecision(false, 'linux', 0xef53).on).toBe(false)
  })
})

describe('Which mounts a journal compares', () => {
  it('only those at or below the project (escaped names read back), so a container starting elsewhere costs no walk', () => {
    const table = ['36 25 0:32 / /tmp/a\\040b/mnt rw - tmpfs none rw', '37 25 0:33 / /tmp/a\\040bc rw - tmpfs none rw', '38 25 0:34 / /other rw - tmpfs none rw'].join('\n')
    expect(mountsUnder('/tmp/a b', table)).toBe(table.split('\n')[0])
    expect(mountsUnder('/elsewhere', table)).toBe('')
  })
})

describe.runIf(linux && byDefault)('The change journal, on by default', () => {
  const mounted: string[] = []
  const images: string[] = []
  afterEach(() => {
    while (mounted.length) spawnSync('umount', ['-l', mounted.pop()!])
    while (images.length) fs.rmSync(images.pop()!, { recursive: true, force: true })
  })

  it('a store opened with no watch option answers a capture after one edit from the journal, and records the edit', async () => {
    const w = await workspace()
    for (let i = 0; i < 20; i++) w.write(`src/f${i}.txt`, `v0 ${i}`)
    await baseline(w)
    w.write('src/f3.txt', 'v1 3') // same size, same second
    const s = await w.store.seal('s/m1')
    expect(s.mode).toBe('watched')
    expect((await w.store.changes('s/m1')).map((c) => c.path)).toEqual(['src/f3.txt'])
    await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(w.text('src/f3.txt')).toBe('v0 3')
  })

  it('a file written through a hard link from outside the project is seen, and its restore puts the bytes back', async () => {
    const w = await workspace()
    const outside = path.join(w.dir, 'store-copy.js')
    fs.writeFileSync(outside, 'module.exports = 1\n')
    fs.mkdirSync(w.p('node_modules/pkg'), { recursive: true })
    fs.linkSync(outside, w.p('node_modules/pkg/index.js')) // as a package manager's store does
    w.write('a.txt', 'a')
    await baseline(w)
    fs.writeFileSync(outside, 'module.exports = 2\n') // no event reaches any watch in the project
    const s = await w.store.seal('s/m1')
    expect(s.mode).toBe('watched')
    expect((await w.store.changes('s/m1')).map((c) => c.path)).toEqual(['node_modules/pkg/index.js'])
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(res.status).toBe('done')
    expect(w.text('node_modules/pkg/index.js')).toBe('module.exports = 1\n')
  })

  it('after more events than the kernel is sure to have kept, the capture walks in full and misses nothing', async () => {
    const w = await workspace()
    w.write('bulk/keep.txt', 'k')
    await baseline(w)
    // 4,200 files in a folder that exists: no folder event, two inotify events each (create,
    // modify), delivered as one each: past half the kernel's queue (16,384), where an overflow (which
    // the watcher drops without a word) could have lost some.
    for (let i = 0; i < 4200; i++) fs.writeFileSync(w.p(`bulk/n${i}.txt`), `n${i}`)
    const s = await w.store.seal('s/m1')
    expect(s.mode).toBe('full')
    expect((await w.store.changes('s/m1')).length).toBe(4200)
    // The journal comes back for the next small change.
    await baseline(w, 's/m3', 'c')
    w.write('bulk/keep.txt', 'K')
    expect((await w.store.seal('s/m3')).mode).toBe('watched')
    expect((await w.store.changes('s/m3')).map((c) => c.path)).toEqual(['bulk/keep.txt'])
  })

  it('two stores watching one folder in one process (a shared extra folder) each see every change', async () => {
    const w = await workspace()
    w.write('f.txt', 'v0')
    const other = await openCheckpointStore({ storeDir: path.join(w.dir, 'store-2'), roots: [{ path: w.ws }] })
    try {
      // The first store runs ahead: its barrier files appear in the folder the second one watches.
      for (let i = 0; i < 8; i++) {
        await w.store.capture(`s/a${i}`)
        await w.store.seal(`s/a${i}`)
      }
      await other.capture('s/b0')
      await other.seal('s/b0')
      for (let t = 1; t <= 4; t++) {
        await other.capture(`s/b${t}`)
        w.write('f.txt', `v${t}`)
        const s = await other.seal(`s/b${t}`)
        expect(
          (await other.changes(`s/b${t}`)).map((c) => c.path),
          `turn ${t} (${s.mode})`,
        ).toEqual(['f.txt'])
      }
    } finally {
      await other.close()
    }
  })

  it('the check walks find nothing to blame on a journal that saw everything: it stays on', async () => {
    const w = await workspace()
    for (let i = 0; i < 10; i++) w.write(`src/f${i}.txt`, `v0 ${i}`)
    await w.store.close()
    w.store = await openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }], journalCheckEvery: 2 })
    await baseline(w)
    const modes: string[] = []
    for (let t = 1; t <= 10; t++) {
      if (t > 1) await w.store.capture(`s/m${t}`)
      if (t % 3 === 0) fs.chmodSync(w.p(`src/f${t}.txt`.replace('10', '0')), 0o600)
      else if (t % 3 === 1) w.write(`src/f${t % 10}.txt`, `v${t} ${t % 10}`.padEnd(5))
      else fs.renameSync(w.p(`src/f${t}.txt`), w.p(`src/g${t}.txt`))
      const s = await w.store.seal(`s/m${t}`)
      expect(s.warnings, `turn ${t}`).toEqual([])
      modes.push(s.mode)
    }
    expect(modes).toContain('full') // checks ran
    expect(modes.filter((m) => m === 'watched').length).toBeGreaterThanOrEqual(4) // and the journal came back after each
  })

  const python = spawnSync('python3', ['-c', 'import mmap']).status === 0
  it.runIf(python)('a write through mmap reaches no watch: the journal’s check walk finds it, says so, and that root walks in full from then on', async () => {
    const w = await workspace()
    w.write('db.bin', 'AAAAAAAA')
    w.write('other.txt', 'o')
    await w.store.close()
    w.store = await openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }], journalCheckEvery: 3 })
    await baseline(w)
    // As a database with a writable mapping does: the kernel moves the mtime, inotify says nothing.
    const py = 'import mmap,sys\nf=open(sys.argv[1],"r+b")\nm=mmap.mmap(f.fileno(),0)\nm[0:4]=b"BBBB"\nm.flush()\nm.close()'
    expect(spawnSync('python3', ['-c', py, w.p('db.bin')]).status).toBe(0)
    const blind = await w.store.seal('s/m1')
    expect(blind.mode).toBe('watched')
    expect(await w.store.changes('s/m1')).toEqual([]) // the blind spot itself
    // The next captures: within two watched ones, a checking walk; it records the file as it is.
    const results = []
    for (let t = 2; t <= 4; t++) {
      results.push(await w.store.capture(`s/m${t}`), await w.store.seal(`s/m${t}`))
      if (results.some((r) => r.mode === 'full')) break
    }
    const check = results.find((r) => r.mode === 'full')!
    expect(check.warnings.join('\n')).toMatch(/change journal of .* missed changes .*walks in full from now on/)
    await w.store.capture('s/m9')
    w.write('other.txt', 'O')
    expect((await w.store.seal('s/m9')).mode).toBe('full')
    // The check's snapshot recorded the mapped write: a later turn does not take it for its own.
    expect((await w.store.changes('s/m9')).map((c) => c.path)).toEqual(['other.txt'])
  })

  it.runIf(python)(
    'an install’s plan previews from the journal (no lstat per file), and a write it never reported (mmap) is still never deleted: each delete checks its file first',
    async () => {
      const w = await workspace()
      w.write('keep.txt', 'k')
      await baseline(w)
      for (let i = 0; i < 40; i++) w.write(`vendor/pkg/f${i}.bin`, `AAAAAAAA${i}`)
      await w.store.seal('s/m1')
      await baseline(w, 's/m2', 'idle') // until the journal answers again (the new folders are watched)
      await w.store.seal('s/m2')
      const py = 'import mmap,sys\nf=open(sys.argv[1],"r+b")\nm=mmap.mmap(f.fileno(),0)\nm[0:4]=b"BBBB"\nm.flush()\nm.close()'
      expect(spawnSync('python3', ['-c', py, w.p('vendor/pkg/f3.bin')]).status).toBe(0)
      w.write('vendor/pkg/f5.bin', 'edited by the user')
      const lstat = vi.spyOn(fs, 'lstatSync')
      const plan = await w.store.plan({ turnKey: 's/m1' })
      const looked = lstat.mock.calls.filter(([p]) => String(p).endsWith('.bin')).length
      lstat.mockRestore()
      expect(looked).toBeLessThan(5) // the files the journal reported (f5), not all forty
      expect(plan.actions.find((a) => a.path === 'vendor/pkg/f5.bin')).toMatchObject({ kind: 'conflict', reason: 'edited since the turn' })
      const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
      expect(w.text('vendor/pkg/f3.bin')).toBe('BBBBAAAA3')
      expect(w.text('vendor/pkg/f5.bin')).toBe('edited by the user')
      expect(r.skipped).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'vendor/pkg/f3.bin', reason: 'changed since the plan was made; kept as it is' })]))
      expect(fs.readdirSync(w.p('vendor/pkg')).sort()).toEqual(['f3.bin', 'f5.bin'])
      expect(w.text('keep.txt')).toBe('k')
    },
  )

  it('a folder a restore had to keep (it holds a file the user made) is still watched: a later edit in it is recorded', async () => {
    const w = await workspace()
    w.write('keep.txt', 'k')
    await baseline(w)
    for (let i = 0; i < 5; i++) w.write(`gen/f${i}.txt`, `made by the turn ${i}`)
    await w.store.seal('s/m1')
    await baseline(w, 's/m2', 'idle') // the new folder is watched
    await w.store.seal('s/m2')
    w.write('gen/mine.txt', 'the user’s v1')
    // The restore removes the turn's files and would remove gen/ (its files' events reach the journal).
    const r = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(r.skipped).toEqual([expect.objectContaining({ path: 'gen', reason: expect.stringMatching(/not empty/) })])
    expect(fs.readdirSync(w.p('gen'))).toEqual(['mine.txt'])
    // The user edits their file; then a turn edits it too, and is retaken.
    w.write('gen/mine.txt', 'the user’s v2')
    await w.store.capture('s/m3')
    w.write('gen/mine.txt', 'the agent’s version')
    await w.store.seal('s/m3')
    expect((await w.store.changes('s/m3')).map((c) => c.path)).toEqual(['gen/mine.txt'])
    await w.store.apply(await w.store.plan({ turnKey: 's/m3' }))
    expect(w.text('gen/mine.txt')).toBe('the user’s v2')
  })

  const canMount = linux && spawnSync('mount', ['--version']).status === 0 && process.getuid?.() === 0
  it.runIf(canMount)('a file system mounted inside the project after the watches were made: the capture walks and sees the files in it', async (ctx) => {
    const w = await workspace()
    w.write('a.txt', 'a')
    fs.mkdirSync(w.p('mnt'))
    await baseline(w)
    const m = spawnSync('mount', ['-t', 'tmpfs', 'none', w.p('mnt')])
    if (m.status !== 0) ctx.skip() // no privilege to mount here
    mounted.push(w.p('mnt'))
    fs.writeFileSync(w.p('mnt/inside.txt'), 'made on the new mount')
    const s = await w.store.seal('s/m1')
    expect(s.mode).toBe('full')
    // The mount point now shows the new file system's root folder (its mode and inode).
    expect((await w.store.changes('s/m1')).map((c) => c.path)).toEqual(['mnt', 'mnt/inside.txt'])
    // A local file system inside the root is watched from then on (once its root folder is older
    // than the fresh subscription, as for any new folder).
    await baseline(w, 's/m3', 'c')
    fs.writeFileSync(w.p('mnt/inside.txt'), 'edited on the new mount')
    expect((await w.store.seal('s/m3')).mode).toBe('watched')
    expect((await w.store.changes('s/m3')).map((c) => c.path)).toEqual(['mnt/inside.txt'])
  })

  const canBtrfs = canMount && spawnSync('mkfs.btrfs', ['--version']).status === 0 && spawnSync('btrfs', ['--version']).status === 0
  it.runIf(canBtrfs)('a project on Btrfs with a subvolume inside it (another device, no mount): the journal answers for it too', async (ctx) => {
    const img = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-btrfs-'))
    images.push(img)
    const dev = path.join(img, 'fs.img')
    fs.closeSync(fs.openSync(dev, 'w'))
    fs.truncateSync(dev, 300 * 1024 * 1024)
    const base = path.join(img, 'mnt')
    fs.mkdirSync(base)
    if (spawnSync('mkfs.btrfs', ['-q', dev]).status !== 0 || spawnSync('mount', ['-o', 'loop', dev, base]).status !== 0) ctx.skip()
    mounted.push(base)
    const w = await workspace({ base })
    expect(spawnSync('btrfs', ['subvolume', 'create', w.p('sub')]).status).toBe(0)
    expect(fs.statSync(w.p('sub')).dev).not.toBe(fs.statSync(w.ws).dev)
    w.write('sub/s.txt', 's0')
    await baseline(w)
    w.write('sub/s.txt', 's1')
    expect((await w.store.seal('s/m1')).mode).toBe('watched') // walked at every capture before
    expect((await w.store.changes('s/m1')).map((c) => c.path)).toEqual(['sub/s.txt'])
    await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(w.text('sub/s.txt')).toBe('s0')
  })
})
