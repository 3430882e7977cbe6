// Recovery's second look at the steps a crashed restore had finished (recovery-check.ts), as a user
// meets it: the app stops mid-restore, the user edits files while it is down, the app opens again.
// What the restore had already put back and the user changed since is theirs: reported as kept,
// and the restore's undo never writes over it. What nobody touched is the restore's result, undone
// as usual. The crash is the restore stopping right before a chosen step (its `onStep` hook throws):
// every step before it is done and journaled, the rest is redone at the next open.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Step } from '../../core/checkpoints/store/journal'
import { CHANGED_WHILE_DOWN } from '../../core/checkpoints/restore/recovery-check'
import { workspace } from './helpers'
import type { Ws } from './helpers'

/**
 * A turn that edits mod.txt, perm.txt, del-me.txt and to-dir.txt, creates made.txt and newdir/,
 * deletes gone.txt and the folder fold/ (with a file), replaces the read-only folder sw/ by a file,
 * deletes the read-only folder ro2/, retargets the link ln, makes run.sh executable, closes the
 * folder priv/ (0700) and edits zzz.txt (the last write). A read-only folder gets its mode after its
 * files: the plan's last step is ro2's chmod (the crash point), sw's chmod the one before it.
 */
async function turn(): Promise<Ws> {
  const w = await workspace()
  w.write('mod.txt', 'mod before')
  w.write('perm.txt', 'perm before', 0o644)
  w.write('gone.txt', 'gone before')
  w.write('fold/f.txt', 'in the folder')
  w.write('run.sh', 'echo run', 0o644)
  w.write('priv/p.txt', 'private')
  fs.chmodSync(w.p('priv'), 0o755)
  w.write('zzz.txt', 'last before')
  w.write('del-me.txt', 'del-me before')
  w.write('to-dir.txt', 'to-dir before')
  w.write('sw/in.txt', 'in the read-only folder')
  fs.chmodSync(w.p('sw'), 0o555)
  w.write('ro2/r.txt', 'in another read-only folder')
  fs.chmodSync(w.p('ro2'), 0o555)
  fs.symlinkSync('mod.txt', w.p('ln'))
  await w.store.capture('s/m1')
  w.write('mod.txt', 'mod by the turn')
  w.write('perm.txt', 'perm by the turn')
  w.write('made.txt', 'made by the turn')
  fs.rmSync(w.p('gone.txt'))
  fs.rmSync(w.p('fold'), { recursive: true })
  fs.chmodSync(w.p('run.sh'), 0o755)
  fs.chmodSync(w.p('priv'), 0o700)
  w.write('zzz.txt', 'last by the turn')
  w.write('del-me.txt', 'del-me by the turn')
  w.write('to-dir.txt', 'to-dir by the turn')
  w.write('newdir/n.txt', 'in a folder the turn made')
  fs.chmodSync(w.p('sw'), 0o755)
  fs.rmSync(w.p('sw'), { recursive: true })
  w.write('sw', 'a file where the read-only folder was')
  fs.chmodSync(w.p('ro2'), 0o755)
  fs.rmSync(w.p('ro2'), { recursive: true })
  fs.rmSync(w.p('ln'))
  fs.symlinkSync('gone.txt', w.p('ln'))
  await w.store.seal('s/m1')
  return w
}

/** Restore s/m1, stop right before the step at `at`, run `whileDown`, reopen (recovery). */
async function crashAt(w: Ws, at: (s: Step) => boolean, whileDown: () => void = () => {}) {
  const plan = await w.store.plan({ turnKey: 's/m1' })
  const crash = new Error('the app stopped here')
  await expect(
    w.store.apply(
      plan,
      { onConflict: 'restore-rest' },
      {
        onStep: (_i: number, s: Step) => {
          if (at(s)) throw crash
        },
      },
    ),
  ).rejects.toBe(crash)
  whileDown()
  const store = await w.reopen()
  expect(store.recovered).toHaveLength(1)
  return store.recoveredRestores[0]!
}

const lastWrite = (s: Step) => s.key === 'zzz.txt'
const lastStep = (s: Step) => s.op === 'chmod' && s.key === 'ro2'
const modeOf = (w: Ws, rel: string) => fs.lstatSync(w.p(rel)).mode & 0o7777

describe('recovery after a crash mid-restore', () => {
  it('what nobody touched while the app was down is the restore’s result: nothing reported, and its undo brings the turn back', async () => {
    const w = await turn()
    const rec = await crashAt(w, lastStep)
    expect(rec.failed).toEqual([])
    expect(rec.skipped).toEqual([])
    expect(w.text('mod.txt')).toBe('mod before')
    expect(w.text('perm.txt')).toBe('perm before')
    expect(w.exists('made.txt')).toBe(false)
    expect(w.text('gone.txt')).toBe('gone before')
    expect(w.text('fold/f.txt')).toBe('in the folder')
    expect(modeOf(w, 'run.sh')).toBe(0o644)
    expect(modeOf(w, 'priv')).toBe(0o755)
    expect(fs.readlinkSync(w.p('ln'))).toBe('mod.txt')
    expect(w.text('zzz.txt')).toBe('last before')
    expect(w.exists('newdir')).toBe(false)
    expect(w.text('sw/in.txt')).toBe('in the read-only folder')
    expect(modeOf(w, 'sw')).toBe(0o555)
    expect(w.text('ro2/r.txt')).toBe('in another read-only folder')
    expect(modeOf(w, 'ro2')).toBe(0o555)
    const restoreId = w.store.listTurns('s')[0]!.restoredBy!
    const u = await w.store.undo(restoreId)
    expect(u.failed).toEqual([])
    expect(u.skipped).toEqual([])
    expect(w.text('mod.txt')).toBe('mod by the turn')
    expect(w.text('perm.txt')).toBe('perm by the turn')
    expect(w.text('made.txt')).toBe('made by the turn')
    expect(w.exists('gone.txt')).toBe(false)
    expect(w.exists('fold')).toBe(false)
    expect(modeOf(w, 'run.sh')).toBe(0o755)
    expect(modeOf(w, 'priv')).toBe(0o700)
    expect(fs.readlinkSync(w.p('ln'))).toBe('gone.txt')
    expect(w.text('sw')).toBe('a file where the read-only folder was')
    expect(w.text('newdir/n.txt')).toBe('in a folder the turn made')
  })

  it('a folder’s mode changed while the app was down is not an edit (folders are judged by type)', async () => {
    const w = await turn()
    const rec = await crashAt(w, lastStep, () => {
      fs.chmodSync(w.p('priv'), 0o750)
      fs.chmodSync(w.p('fold'), 0o750)
    })
    expect(rec.skipped).toEqual([])
    expect(rec.failed).toEqual([])
  })

  it('each path the restore had finished and the user changed while the app was down is kept, reported, and never undone over', async () => {
    const w = await turn()
    const rec = await crashAt(w, lastStep, () => {
      w.write('mod.txt', 'mod edited while down')
      fs.chmodSync(w.p('perm.txt'), 0o600) // its mode alone
      w.write('made.txt', 'made again by the user')
      fs.rmSync(w.p('gone.txt'))
      fs.rmSync(w.p('fold'), { recursive: true })
      w.write('fold', 'a file where the restore made a folder')
      fs.rmSync(w.p('del-me.txt'))
      fs.rmSync(w.p('to-dir.txt'))
      fs.mkdirSync(w.p('to-dir.txt'), 0o755)
      fs.chmodSync(w.p('to-dir.txt'), 0o755)
      w.write('newdir/mine.txt', 'the user’s, in a folder the restore had removed')
      fs.rmSync(w.p('sw'), { recursive: true }) // the folder the restore made where the turn's file was
      w.write('run.sh', 'echo edited while down')
      fs.rmSync(w.p('ln'))
      fs.symlinkSync('zzz.txt', w.p('ln'))
    })
    expect(rec.failed).toEqual([])
    expect(rec.skipped.map((s) => [s.path, s.reason]).sort()).toEqual(
      ['del-me.txt', 'fold', 'fold/f.txt', 'gone.txt', 'ln', 'made.txt', 'mod.txt', 'newdir', 'perm.txt', 'run.sh', 'sw', 'sw/in.txt', 'to-dir.txt'].map((p) => [
        p,
        CHANGED_WHILE_DOWN,
      ]),
    )
    // The step still to run when the app stopped is redone.
    expect(modeOf(w, 'ro2')).toBe(0o555)
    const restoreId = w.store.listTurns('s')[0]!.restoredBy!
    const u = await w.store.undo(restoreId, { onConflict: 'restore-rest' })
    expect(u.failed).toEqual([])
    // The user's versions stay; what nobody touched goes back to the turn's.
    expect(w.text('mod.txt')).toBe('mod edited while down')
    expect(w.text('perm.txt')).toBe('perm before')
    expect(modeOf(w, 'perm.txt')).toBe(0o600)
    expect(w.text('made.txt')).toBe('made again by the user')
    expect(w.exists('gone.txt')).toBe(false)
    expect(w.text('fold')).toBe('a file where the restore made a folder')
    expect(w.exists('del-me.txt')).toBe(false)
    expect(fs.readdirSync(w.p('to-dir.txt'))).toEqual([])
    expect(w.text('newdir/mine.txt')).toBe('the user’s, in a folder the restore had removed')
    expect(w.text('run.sh')).toBe('echo edited while down')
    expect(w.exists('sw')).toBe(false)
    expect(fs.readlinkSync(w.p('ln'))).toBe('zzz.txt')
    expect(w.text('zzz.txt')).toBe('last by the turn')
    expect(modeOf(w, 'priv')).toBe(0o700)
  })

  it('a path changed while down whose step was still to run is not reported twice', async () => {
    const w = await turn()
    const rec = await crashAt(w, lastWrite, () => w.write('zzz.txt', 'zzz edited while down'))
    expect(rec.failed).toEqual([])
    expect(rec.skipped.map((s) => [s.path, s.reason])).toEqual([['zzz.txt', 'changed while the restore was interrupted (the app was not running); kept as it is']])
    expect(w.text('zzz.txt')).toBe('zzz edited while down')
  })

  it('a path the restore kept before the crash (edited right before its step) is reported once, as kept then', async () => {
    const w = await turn()
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const crash = new Error('the app stopped here')
    await expect(
      w.store.apply(
        plan,
        { onConflict: 'restore-rest' },
        {
          onStep: (_i: number, s: Step) => {
            if (s.key === 'mod.txt') w.write('mod.txt', 'edited right before its step')
            if (s.key === 'zzz.txt') throw crash
          },
        },
      ),
    ).rejects.toBe(crash)
    const rec = (await w.reopen()).recoveredRestores[0]!
    expect(rec.failed).toEqual([])
    expect(rec.skipped.map((s) => [s.path, s.reason])).toEqual([['mod.txt', 'changed since the plan was made; kept as it is']])
    expect(w.text('mod.txt')).toBe('edited right before its step')
  })
})
