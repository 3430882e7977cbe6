// A retake asks the same message again: its capture replaces the turn's record, and the replaced
// one (the earlier attempt's) is kept so "continue from this attempt" can bring its files back —
// through a sweep, a reopen, and back and forth.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { openCheckpointStore } from '../../core/checkpoints'
import { workspace } from './helpers'

describe("a turn's earlier attempts", () => {
  it('keeps the replaced record and its snapshots through a sweep and a reopen, and brings its files back', async () => {
    const w = await workspace()
    w.write('a.txt', 'before')
    // Attempt 1 of turn m1.
    await w.store.capture('s/m1')
    w.write('a.txt', 'attempt one')
    w.write('one.txt', 'made by attempt one')
    await w.store.seal('s/m1')
    // The retake: roll m1 back, then the same message captured again (attempt 2).
    const retake = await w.store.apply(await w.store.plan({ backTo: 's/m1' }))
    expect(w.text('a.txt')).toBe('before')
    await w.store.capture('s/m1')
    w.write('two.txt', 'made by attempt two')
    await w.store.seal('s/m1')
    await w.store.sweep()
    const store = await w.reopen()

    // Continue from attempt 1: attempt 2 rolled back, attempt 1's record back, its restore undone.
    const leave = await store.apply(await store.plan({ backTo: 's/m1' }))
    expect(w.exists('two.txt')).toBe(false)
    expect(await store.bringBackAttemptTurn('s/m1', retake.restoreId!)).toBe(true)
    await store.undo(retake.restoreId!)
    expect(w.text('a.txt')).toBe('attempt one')
    expect(w.text('one.txt')).toBe('made by attempt one')
    expect(store.listTurns('s').map((t) => t.status)).toEqual(['sealed'])

    // A retake of m1 now rolls back what attempt 1 did (its own record is the current one).
    await store.apply(await store.plan({ backTo: 's/m1' }))
    expect(w.text('a.txt')).toBe('before')
    expect(w.exists('one.txt')).toBe(false)
    // And attempt 2 is still there to come back to.
    expect(await store.bringBackAttemptTurn('s/m1', leave.restoreId!)).toBe(true)
  })

  it('a clean-up keeps the files of a restore an attempt points to, and drops one nothing points to', async () => {
    const w = await workspace()
    await w.store.capture('s/m1')
    w.write('a.txt', 'attempt A')
    await w.store.seal('s/m1')
    const kept = await w.store.apply(await w.store.plan({ backTo: 's/m1' }))
    await w.store.capture('t/m2')
    w.write('b.txt', 'attempt B')
    await w.store.seal('t/m2')
    const dropped = await w.store.apply(await w.store.plan({ backTo: 't/m2' }))
    await w.store.close()
    const store = await openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }], pinnedRestores: () => [kept.restoreId!] })
    try {
      // Every turn is older than "now": the clean-up drops them all.
      expect((await store.retention({ maxAgeMs: -1 })).turnsDropped).toBe(2)
      await store.sweep()
      await store.undo(kept.restoreId!)
      expect(w.text('a.txt')).toBe('attempt A')
      await store.undo(dropped.restoreId!)
      expect(w.exists('b.txt')).toBe(false)
    } finally {
      await store.close()
    }
  })

  it('finds nothing to bring back for a restore that replaced no record', async () => {
    const w = await workspace()
    await w.store.capture('s/m1')
    w.write('x.txt', 'x')
    await w.store.seal('s/m1')
    const r = await w.store.apply(await w.store.plan({ backTo: 's/m1' }))
    expect(await w.store.bringBackAttemptTurn('s/m1', r.restoreId!)).toBe(false)
  })
})

describe('a turn’s files written into another folder (fork with files)', () => {
  it('writes files with their modes and links as the turn left them, says what it could not, and needs a sealed turn', async () => {
    const w = await workspace({ maxFileBytes: 1024 })
    w.write('keep.txt', 'kept')
    await w.store.capture('s/m1')
    expect(() => w.store.exportTurnFiles('s/m1', fs.realpathSync(w.ws), `${w.dir}/too-early`)).toThrow(/no sealed checkpoint/)
    w.write('bin/run.sh', '#!/bin/sh\necho hi\n', 0o755)
    fs.symlinkSync('keep.txt', w.p('link'))
    w.write('big.dat', Buffer.alloc(4096, 1))
    await w.store.seal('s/m1')
    w.write('later.txt', 'after the turn')
    const target = `${w.dir}/fork`
    fs.mkdirSync(target)
    const out = w.store.exportTurnFiles('s/m1', fs.realpathSync(w.ws), target)
    expect(fs.readFileSync(`${target}/bin/run.sh`, 'utf8')).toBe('#!/bin/sh\necho hi\n')
    expect(fs.statSync(`${target}/bin/run.sh`).mode & 0o777).toBe(0o755)
    expect(fs.readlinkSync(`${target}/link`)).toBe('keep.txt')
    expect(fs.existsSync(`${target}/later.txt`)).toBe(false)
    expect(out.skipped).toEqual([{ path: 'big.dat', reason: 'over the size limit (never checkpointed)' }])
  })
})
