// The content guards of a restore's deletes and writes (step-guards.ts), one rule per test, as a
// user meets them: a file deleted by someone else right before its step, a folder or a file put
// where the restore deletes, a path changed while the app was down. Two of these races land
// between a step's check and its unlink, a window no hook reaches: there the other process's act is
// made inside that unlink call (`raceInUnlink`), on the real file system, and the unlink then runs.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Step } from '../../core/checkpoints/store/journal'
import { workspace } from './helpers'
import type { Ws } from './helpers'

afterEach(() => {
  vi.restoreAllMocks()
})

/** Right before the unlink of `abs` (after its checks), `act` runs once: another process's move. */
function raceInUnlink(abs: string, act: () => void): () => boolean {
  const real = fs.unlinkSync.bind(fs)
  let acted = false
  vi.spyOn(fs, 'unlinkSync').mockImplementation((p) => {
    if (!acted && String(p) === abs) {
      acted = true
      act()
    }
    return real(p)
  })
  return () => acted
}

/** Apply the plan of s/m1 and stop it (as a crash would) right before the first step; reopen. */
async function crashBeforeSteps(w: Ws, whileDown: () => void) {
  const plan = await w.store.plan({ turnKey: 's/m1' })
  const crash = new Error('the app stopped here')
  await expect(
    w.store.apply(
      plan,
      { onConflict: 'restore-rest' },
      {
        onStep: () => {
          throw crash
        },
      },
    ),
  ).rejects.toBe(crash)
  whileDown()
  const store = await w.reopen()
  expect(store.recovered).toHaveLength(1)
  return store.recoveredRestores[0]!
}

/** A turn that creates `made` (and keeps `kept.txt` as it was). */
async function turnCreating(made: string[], opts: Parameters<typeof workspace>[0] = {}): Promise<Ws> {
  const w = await workspace(opts)
  w.write('kept.txt', 'before the turn')
  await w.store.capture('s/m1')
  for (const m of made) w.write(m, `made by the turn: ${m}`)
  await w.store.seal('s/m1')
  return w
}

describe('a restore deletes only what the turn made, as it left it', () => {
  it('a file the turn made, deleted by the user while a crashed restore waited, completes the restore without a failure', async () => {
    const w = await turnCreating(['a.txt', 'b.txt'])
    const rec = await crashBeforeSteps(w, () => fs.rmSync(w.p('b.txt')))
    expect(rec.failed).toEqual([])
    expect(w.exists('a.txt')).toBe(false)
    expect(w.exists('b.txt')).toBe(false)
    expect(w.store.listTurns('s')[0]!.status).toBe('restored')
  })

  it('a crashed restore’s writes are redone at the next open over what the turn left (no guard there: recovery judges)', async () => {
    const w = await turnCreating([])
    w.write('kept.txt', 'edited by the turn')
    await w.store.seal('s/m1')
    const rec = await crashBeforeSteps(w, () => {})
    expect(rec.failed).toEqual([])
    expect(rec.skipped).toEqual([])
    expect(w.text('kept.txt')).toBe('before the turn')
  })

  it('a folder put where the restore deletes a file, right before its unlink, is kept with what it holds', async () => {
    const w = await turnCreating(['f.txt', 'g.txt'])
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const acted = raceInUnlink(w.p('f.txt'), () => {
      fs.rmSync(w.p('f.txt'))
      w.write('f.txt/note.txt', 'the user’s note')
    })
    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(acted()).toBe(true)
    expect(r.failed).toEqual([])
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([['f.txt', 'is a folder now; kept']])
    expect(w.text('f.txt/note.txt')).toBe('the user’s note')
    expect(w.exists('g.txt')).toBe(false)
  })

  it('a folder replaced by a file right before the unlink of a file in it: the file is kept, nothing fails', async () => {
    const w = await turnCreating(['d/x.txt', 'y.txt'])
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const acted = raceInUnlink(w.p('d/x.txt'), () => {
      fs.rmSync(w.p('d'), { recursive: true })
      fs.writeFileSync(w.p('d'), 'a file of the user')
    })
    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(acted()).toBe(true)
    expect(r.failed).toEqual([])
    expect(w.text('d')).toBe('a file of the user')
    expect(w.exists('y.txt')).toBe(false)
  })

  it('a folder above swapped for a link loop right before the unlink: the delete fails and says so, the turn stays unrestored', async () => {
    const w = await turnCreating(['d/x.txt', 'y.txt'])
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const acted = raceInUnlink(w.p('d/x.txt'), () => {
      fs.rmSync(w.p('d'), { recursive: true })
      fs.symlinkSync('d', w.p('d')) // ELOOP for anything below it
    })
    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(acted()).toBe(true)
    expect(r.status).toBe('partial')
    expect(r.failed.map((f) => f.path)).toEqual(['d/x.txt'])
    expect(fs.readlinkSync(w.p('d'))).toBe('d')
    expect(w.store.listTurns('s')[0]!.status).toBe('sealed')
  })

  it('a file made undeletable right before its unlink (immutable: EPERM, not a folder) is a failure, not "a folder now"', async () => {
    const w = await turnCreating(['locked.txt', 'y.txt'])
    const plan = await w.store.plan({ turnKey: 's/m1' })
    let immutable = false
    const acted = raceInUnlink(w.p('locked.txt'), () => {
      immutable = spawnSync('chattr', ['+i', w.p('locked.txt')]).status === 0
    })
    try {
      const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
      expect(acted()).toBe(true)
      // Only root on a file system with the attribute can make one (here: the runner's /tmp).
      if (!immutable) return console.warn('chattr +i unavailable here: the EPERM case is not exercised')
      expect(r.failed.map((f) => [f.path, f.error])).toEqual([['locked.txt', expect.stringMatching(/EPERM/)]])
      expect(r.skipped).toEqual([])
      expect(w.text('locked.txt')).toBe('made by the turn: locked.txt')
    } finally {
      if (immutable) spawnSync('chattr', ['-i', w.p('locked.txt')])
    }
  })

  it('a file removed right before its unlink by another process: the restore does not fail', async () => {
    const w = await turnCreating(['gone.txt', 'other.txt'])
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const acted = raceInUnlink(w.p('gone.txt'), () => fs.rmSync(w.p('gone.txt')))
    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(acted()).toBe(true)
    expect(r.failed).toEqual([])
    expect(r.status).toBe('done')
    expect(w.exists('other.txt')).toBe(false)
  })

  it('a file the user deletes right before its step is reported untouched: the undo does not bring it back', async () => {
    const w = await turnCreating(['a.txt', 'b.txt'])
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const r = await w.store.apply(
      plan,
      { onConflict: 'restore-rest' },
      {
        onStep: (_i: number, s: Step) => {
          if (s.key === 'b.txt' && fs.existsSync(w.p('b.txt'))) fs.rmSync(w.p('b.txt'))
        },
      },
    )
    expect(r.failed).toEqual([])
    expect(r.skipped).toEqual([])
    const u = await w.store.undo(r.restoreId!)
    expect(u.status).toBe('done')
    expect(w.text('a.txt')).toBe('made by the turn: a.txt')
    expect(w.exists('b.txt')).toBe(false)
  })
})

describe('on a case-insensitive root (no ctime shortcut)', () => {
  const ci = { roots: (ws: string) => [{ path: ws, caseInsensitive: true }] }

  it('a file the turn made and nobody touched is deleted', async () => {
    const w = await turnCreating(['made.txt'], ci)
    const r = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }), { onConflict: 'restore-rest' })
    expect(r.failed).toEqual([])
    expect(w.exists('made.txt')).toBe(false)
    expect(w.text('kept.txt')).toBe('before the turn')
  })

  it('a file edited right before its step is kept and reported', async () => {
    const w = await turnCreating(['made.txt', 'other.txt'], ci)
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const r = await w.store.apply(
      plan,
      { onConflict: 'restore-rest' },
      {
        onStep: (_i: number, s: Step) => {
          if (s.key === 'made.txt' && w.text('made.txt').startsWith('made')) w.write('made.txt', 'edited by the user')
        },
      },
    )
    expect(w.text('made.txt')).toBe('edited by the user')
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([['made.txt', 'changed since the plan was made; kept as it is']])
    expect(w.exists('other.txt')).toBe(false)
  })

  it('a file deleted right before its step: nothing fails, and its undo does not bring it back', async () => {
    const w = await turnCreating(['made.txt', 'other.txt'], ci)
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const r = await w.store.apply(
      plan,
      { onConflict: 'restore-rest' },
      {
        onStep: (_i: number, s: Step) => {
          if (s.key === 'made.txt' && fs.existsSync(w.p('made.txt'))) fs.rmSync(w.p('made.txt'))
        },
      },
    )
    expect(r.failed).toEqual([])
    // Gone already: not "changed since the plan" (nothing to keep), only left out of the undo.
    expect(r.skipped).toEqual([])
    const u = await w.store.undo(r.restoreId!)
    expect(u.status).toBe('done')
    expect(w.text('other.txt')).toBe('made by the turn: other.txt')
    expect(w.exists('made.txt')).toBe(false)
  })
})

describe('a write is made only over what the re-check found', () => {
  it('a file recreated by the restore where the user saved one right before its step: theirs is kept', async () => {
    const w = await workspace()
    w.write('del.txt', 'before the turn')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('del.txt'))
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const r = await w.store.apply(
      plan,
      { onConflict: 'restore-rest' },
      {
        onStep: (_i: number, s: Step) => {
          if (s.key === 'del.txt' && !w.exists('del.txt')) w.write('del.txt', 'saved by the user')
        },
      },
    )
    expect(w.text('del.txt')).toBe('saved by the user')
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([['del.txt', 'created since the plan was made; kept as it is']])
  })

  it('a file restored where the user edited right before its step: the edit is kept', async () => {
    const w = await workspace()
    w.write('mod.txt', 'before the turn')
    await w.store.capture('s/m1')
    w.write('mod.txt', 'by the turn')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const r = await w.store.apply(
      plan,
      { onConflict: 'restore-rest' },
      {
        onStep: (_i: number, s: Step) => {
          if (s.key === 'mod.txt' && w.text('mod.txt') === 'by the turn') w.write('mod.txt', 'edited by the user')
        },
      },
    )
    expect(w.text('mod.txt')).toBe('edited by the user')
    expect(r.skipped.map((s) => [s.path, s.reason])).toEqual([['mod.txt', 'changed since the plan was made; kept as it is']])
  })
})
