// The plan's per-path decision (planner.ts classify, turnCandidates), rule by rule where the engine
// tests leave one open, as the user sees the plan: what is offered, what is kept, and why.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { BULK_DELETES, sizeLabel } from '../../core/checkpoints/plan/planner'
import { workspace } from './helpers'

const kinds = (actions: { path: string; kind: string }[]) => Object.fromEntries(actions.map((a) => [a.path, a.kind]))

describe('what a plan offers, path by path', () => {
  it('a file a later, still-applied turn changed again is a conflict naming that turn, and is kept', async () => {
    const w = await workspace()
    w.write('x.txt', 'x before')
    w.write('y.txt', 'y before')
    await w.store.capture('s/m1')
    w.write('x.txt', 'x by m1')
    w.write('y.txt', 'y by m1')
    await w.store.seal('s/m1')
    await w.store.capture('s/m2')
    w.write('x.txt', 'x by m2')
    await w.store.seal('s/m2')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'x.txt': 'conflict', 'y.txt': 'restore' })
    expect(plan.actions.find((a) => a.path === 'x.txt')!.reason).toBe('changed by a later turn (m2)')
    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(r.failed).toEqual([])
    expect(w.text('x.txt')).toBe('x by m2')
    expect(w.text('y.txt')).toBe('y before')
  })

  it('a file the turn made that is now what it was before the turn (gone) is nothing to do, and never a delete', async () => {
    const w = await workspace()
    w.write('keep.txt', 'k')
    await w.store.capture('s/m1')
    w.write('made.txt', 'made')
    w.write('also.txt', 'also')
    await w.store.seal('s/m1')
    fs.rmSync(w.p('made.txt'))
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'made.txt': 'nothing', 'also.txt': 'delete' })
  })

  it('a file the turn made and the user edited since is a conflict with what changed, never deleted', async () => {
    const w = await workspace()
    await w.store.capture('s/m1')
    w.write('made.txt', 'made')
    await w.store.seal('s/m1')
    w.write('made.txt', 'made, then edited by the user')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'made.txt': 'conflict' })
    expect(plan.actions[0]!.reason).toBe('edited since the turn')
    // The conflict shows what a roll back would do: the user's lines go.
    expect(plan.actions[0]!.diff).toContain('-made, then edited by the user')
    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(r.skipped.map((s) => s.path)).toEqual(['made.txt'])
    expect(w.text('made.txt')).toBe('made, then edited by the user')
  })

  it('a small turn’s deletes and restores carry their diff; past BULK_DELETES deletes, the deletes carry none', async () => {
    const w = await workspace()
    w.write('mod.txt', 'one\n')
    await w.store.capture('s/m1')
    w.write('mod.txt', 'two\n')
    w.write('made.txt', 'made\n')
    await w.store.seal('s/m1')
    const small = await w.store.plan({ turnKey: 's/m1' })
    expect(small.actions.find((a) => a.path === 'made.txt')!.diff).toContain('-made')
    expect(small.actions.find((a) => a.path === 'mod.txt')!.diff).toContain('+one')

    // Exactly BULK_DELETES deletes (the files and their folder), and a restore besides: the
    // deletes are counted, not the paths, and are still shown line by line.
    await w.store.capture('s/m2')
    for (let i = 0; i < BULK_DELETES - 1; i++) w.write(`gen/f${i}.txt`, `generated ${i}\n`)
    w.write('mod.txt', 'two, then more\n')
    await w.store.seal('s/m2')
    const atBound = await w.store.plan({ turnKey: 's/m2' })
    expect(atBound.actions.filter((a) => a.kind === 'delete')).toHaveLength(BULK_DELETES)
    expect(atBound.actions).toHaveLength(BULK_DELETES + 1)
    expect(atBound.actions.find((a) => a.path === 'gen/f0.txt')!.diff).toContain('-generated 0')
    // One more: past the bound, the deletes carry none; a restore in that plan still shows its lines.
    await w.store.capture('s/m3')
    w.write('gen/one-more.txt', 'one more\n')
    w.write('mod.txt', 'three\n')
    await w.store.seal('s/m3')
    const bulk = await w.store.plan({ backTo: 's/m2' })
    const deletes = bulk.actions.filter((a) => a.kind === 'delete')
    expect(deletes).toHaveLength(BULK_DELETES + 1)
    expect(deletes.every((a) => a.diff === undefined)).toBe(true)
    expect(bulk.actions.find((a) => a.path === 'mod.txt')!.diff).toContain('+two\n')
  })

  it('a file over the size cap the turn made is never deleted; one it replaced cannot come back, and says how large the cap is', async () => {
    const w = await workspace({ maxFileBytes: 2048 })
    w.write('big-before.log', 'b'.repeat(4096))
    await w.store.capture('s/m1')
    w.write('big-made.log', 'm'.repeat(4096))
    fs.rmSync(w.p('big-before.log'))
    w.write('small.txt', 'small')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'big-before.log': 'not-checkpointed', 'big-made.log': 'not-checkpointed', 'small.txt': 'delete' })
    for (const a of plan.actions.filter((x) => x.kind === 'not-checkpointed')) expect(a.reason).toBe('not restorable: over the 2 KB limit, never checkpointed')
    await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(w.text('big-made.log')).toBe('m'.repeat(4096))
    expect(w.exists('small.txt')).toBe(false)
  })

  it('sizes are said in the unit a user reads', () => {
    expect(sizeLabel(1000)).toBe('1000 bytes')
    expect(sizeLabel(1024)).toBe('1 KB')
    expect(sizeLabel(1536)).toBe('1.5 KB')
    expect(sizeLabel(1 << 20)).toBe('1 MB')
    expect(sizeLabel(50 * (1 << 20))).toBe('50 MB')
    expect(sizeLabel(1 << 30)).toBe('1 GB')
    expect(sizeLabel(2.5 * (1 << 30))).toBe('2.5 GB')
  })

  it('a file whose checkpointed copy is missing from the store is said so before anything is touched; its delete still goes', async () => {
    const w = await workspace()
    // 1 MiB and more: kept as loose blobs (smaller ones go into packs), one file each to lose.
    w.write('x.txt', 'x'.repeat(1 << 20))
    w.write('gone.txt', 'g'.repeat(1 << 20))
    await w.store.capture('s/m1')
    w.write('x.txt', 'x by the turn')
    fs.rmSync(w.p('gone.txt'))
    w.write('made.txt', 'made')
    await w.store.seal('s/m1')
    const first = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(first.actions)).toEqual({ 'x.txt': 'restore', 'gone.txt': 'recreate', 'made.txt': 'delete' })
    // The store is damaged: the copies of what x.txt and gone.txt held before are lost.
    for (const a of first.actions.filter((x) => x.target)) {
      const h = a.target!.hash!
      fs.rmSync(path.join(w.storeDir, 'blobs', h.slice(0, 2), h))
    }
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'x.txt': 'not-checkpointed', 'gone.txt': 'not-checkpointed', 'made.txt': 'delete' })
    for (const a of plan.actions.filter((x) => x.kind === 'not-checkpointed')) expect(a.reason).toBe('cannot restore: the checkpoint’s copy of this file is missing from the store')
    await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(w.text('x.txt')).toBe('x by the turn')
    expect(w.exists('made.txt')).toBe(false)
  })

  it('a restore’s preview shows the lines up to 1 MB; a larger file’s (now or to come back) shows none, and a binary file is said to be binary', async () => {
    const w = await workspace()
    const mb = 1 << 20
    w.write('at-limit.txt', 'a'.repeat(mb))
    w.write('over-limit.txt', 'o'.repeat(mb + 1))
    w.write('image.bin', Buffer.from([0, 1, 2, 0, 3]))
    w.write('shrunk.txt', 's'.repeat(mb + 1))
    w.write('grown.txt', 'small then\n')
    await w.store.capture('s/m1')
    w.write('at-limit.txt', 'b'.repeat(mb))
    w.write('over-limit.txt', 'p'.repeat(mb + 1))
    w.write('image.bin', Buffer.from([0, 9, 9, 0, 9]))
    w.write('shrunk.txt', 'small now\n')
    w.write('grown.txt', 'g'.repeat(mb + 1))
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'at-limit.txt': 'restore', 'over-limit.txt': 'restore', 'image.bin': 'restore', 'shrunk.txt': 'restore', 'grown.txt': 'restore' })
    const at = plan.actions.find((a) => a.path === 'at-limit.txt')!
    expect(at.diff).toContain('+aaaa')
    expect(at.binary).toBe(false)
    expect(plan.actions.find((a) => a.path === 'over-limit.txt')!.diff).toBeUndefined()
    expect(plan.actions.find((a) => a.path === 'shrunk.txt')!.diff).toBeUndefined()
    expect(plan.actions.find((a) => a.path === 'grown.txt')!.diff).toBeUndefined()
    expect(plan.actions.find((a) => a.path === 'image.bin')!.binary).toBe(true)
  })

  it('a file replaced by a link since the turn: its conflict shows no lines read through the link, nor does a link the roll back puts back', async () => {
    const w = await workspace()
    const secret = path.join(w.dir, 'outside-secret.txt')
    fs.writeFileSync(secret, 'a secret outside the project\n')
    w.write('x.txt', 'x before\n')
    fs.symlinkSync(secret, w.p('link'))
    // A file holding what the link's record is the hash of (scanner.ts linkHash): the store has
    // content under that hash, and it is still not lines of the link.
    w.write('where.txt', `symlink:${secret}`)
    await w.store.capture('s/m1')
    w.write('x.txt', 'x by the turn\n')
    fs.rmSync(w.p('link'))
    w.write('link', 'a file made by the turn where a link was\n')
    await w.store.seal('s/m1')
    fs.rmSync(w.p('x.txt'))
    fs.symlinkSync(secret, w.p('x.txt'))
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'x.txt': 'conflict', link: 'restore' })
    expect(plan.actions.find((a) => a.path === 'x.txt')!.reason).toBe('is now a symbolic link, the turn left a file')
    for (const a of plan.actions) expect([a.path, a.diff, a.binary]).toEqual([a.path, undefined, undefined])
  })

  it('a turn still running, or one with no checkpoint, has nothing to restore: applying its plan touches nothing and marks no turn restored', async () => {
    const w = await workspace()
    w.write('a.txt', 'a before')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a by the running turn')
    for (const target of [{ turnKey: 's/m1' }, { turnKey: 's/no-such-turn' }]) {
      const plan = await w.store.plan(target)
      expect(plan.actions).toEqual([])
      const r = await w.store.apply(plan)
      expect([r.applied, r.turnsMarkedRestored]).toEqual([[], false])
    }
    expect(w.text('a.txt')).toBe('a by the running turn')
    expect(w.store.listTurns('s').map((t) => t.status)).toEqual(['open'])
  })
})
