// Restore behaviours a user notices: what comes back, what is removed, what is never overwritten.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { clockPast, sha, workspace } from './helpers'

describe('restoring a turn', () => {
  it('B1: a created file is removed, with the parent folders the turn created when now empty', async () => {
    const w = await workspace()
    w.write('keep/old.txt', 'old')
    await w.store.capture('s/m1')
    w.write('keep/new.txt', 'new')
    w.write('a/b/c/deep.txt', 'deep')
    fs.mkdirSync(w.p('empty/inner'), { recursive: true })
    await w.store.seal('s/m1')
    const r = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(r.status).toBe('done')
    expect(w.exists('keep/new.txt')).toBe(false)
    expect(w.exists('a')).toBe(false)
    expect(w.exists('empty')).toBe(false)
    expect(w.text('keep/old.txt')).toBe('old')
  })

  it('B1: a folder the turn created that now holds an untracked file is kept, and says so', async () => {
    const w = await workspace()
    await w.store.capture('s/m1')
    w.write('gen/out.txt', 'x')
    await w.store.seal('s/m1')
    w.write('gen/.gitignore', '') // appears after the seal, not part of the turn
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const r = await w.store.apply(plan)
    expect(w.exists('gen/out.txt')).toBe(false)
    expect(w.exists('gen/.gitignore')).toBe(true)
    expect(r.skipped.map((s) => s.path)).toContain('gen')
  })

  it('B2: a modified file is restored byte-exact (binary, NUL, CRLF, BOM, empty)', async () => {
    const w = await workspace()
    const contents: Record<string, Buffer> = {
      'bin.dat': Buffer.from([0, 1, 2, 255, 0, 0, 128]),
      'crlf.txt': Buffer.from('line1\r\nline2\r\n'),
      'bom.txt': Buffer.from('\ufeffhé\n', 'utf8'),
      'empty.txt': Buffer.alloc(0),
      'big.bin': Buffer.alloc(3 << 20, 7),
    }
    for (const [k, v] of Object.entries(contents)) w.write(k, v)
    await w.store.capture('s/m1')
    for (const k of Object.keys(contents)) w.write(k, 'changed\n')
    await w.store.seal('s/m1')
    const r = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(r.status).toBe('done')
    for (const [k, v] of Object.entries(contents)) expect(w.sha(k), k).toBe(sha(v))
  })

  it('B3: a deleted file comes back with its mode (exec bit) and mtime', async () => {
    const w = await workspace()
    w.write('run.sh', '#!/bin/sh\necho hi\n', 0o755)
    const t = new Date('2020-01-02T03:04:05Z')
    fs.utimesSync(w.p('run.sh'), t, t)
    await w.store.capture('s/m1')
    fs.rmSync(w.p('run.sh'))
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.map((a) => a.kind)).toEqual(['recreate'])
    await w.store.apply(plan)
    const st = fs.statSync(w.p('run.sh'))
    expect(st.mode & 0o777).toBe(0o755)
    expect(st.mtime.getTime()).toBe(t.getTime())
    expect(w.text('run.sh')).toBe('#!/bin/sh\necho hi\n')
  })

  it('B4: a file edited after the turn is never overwritten; the conflict names path and both hashes', async () => {
    const w = await workspace()
    w.write('f.txt', 'v0')
    await w.store.capture('s/m1')
    w.write('f.txt', 'v1 by the turn')
    await w.store.seal('s/m1')
    w.write('f.txt', 'v2 by the user')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const c = plan.actions.find((a) => a.path === 'f.txt')!
    expect(c.kind).toBe('conflict')
    expect(c.expectedHash).toBe(sha('v1 by the turn'))
    expect(c.actualHash).toBe(sha('v2 by the user'))
    const r = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(w.text('f.txt')).toBe('v2 by the user')
    expect(r.skipped.map((s) => s.path)).toEqual(['f.txt'])
  })

  it('B5: conflicts are not skipped silently: without a choice nothing happens; restore-rest, cancel and overwrite each do what they say', async () => {
    const w = await workspace()
    w.write('mine.txt', 'm0')
    w.write('other.txt', 'o0')
    await w.store.capture('s/m1')
    w.write('mine.txt', 'm1')
    w.write('other.txt', 'o1')
    await w.store.seal('s/m1')
    w.write('mine.txt', 'm2 user edit')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const noChoice = await w.store.apply(plan)
    expect(noChoice.status).toBe('cancelled')
    expect(noChoice.turnsMarkedRestored).toBe(false)
    expect(w.text('other.txt')).toBe('o1')
    const cancel = await w.store.apply(plan, { onConflict: 'cancel' })
    expect(cancel.status).toBe('cancelled')
    expect(w.text('other.txt')).toBe('o1')
    expect(w.store.listTurns('s')[0]!.status).toBe('sealed')

    const rest = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(rest.status).toBe('done')
    expect(rest.turnsMarkedRestored).toBe(true) // the user chose to keep their edit
    expect(rest.applied.map((a) => a.path)).toEqual(['other.txt'])
    expect(rest.skipped).toEqual([expect.objectContaining({ path: 'mine.txt', reason: 'edited since the turn' })])
    expect(w.text('other.txt')).toBe('o0')
    expect(w.text('mine.txt')).toBe('m2 user edit')

    const plan2 = await w.store.plan({ turnKey: 's/m1' })
    const conflict = plan2.actions.find((a) => a.kind === 'conflict')!
    const over = await w.store.apply(plan2, { overwrite: [conflict.id] })
    expect(over.applied.map((a) => a.path)).toEqual(['mine.txt'])
    expect(w.text('mine.txt')).toBe('m0')
    // The overwritten edit is not lost: the restore can be undone.
    await w.store.undo(over.restoreId!)
    expect(w.text('mine.txt')).toBe('m2 user edit')
  })

  it('B17: multi-level — rewind 3 turns, run a new turn, rewind 1: right state, no spurious warnings', async () => {
    const w = await workspace()
    w.write('f.txt', 'v0')
    for (let i = 1; i <= 3; i++) {
      await w.store.capture(`s/m${i}`)
      w.write('f.txt', `v${i}`)
      w.write(`t${i}.txt`, `turn ${i}`)
      await w.store.seal(`s/m${i}`)
    }
    const back = await w.store.plan({ backTo: 's/m1' })
    expect(back.actions.every((a) => a.kind !== 'conflict')).toBe(true)
    const r1 = await w.store.apply(back)
    expect(r1.status).toBe('done')
    expect(r1.warnings).toEqual([])
    expect(w.text('f.txt')).toBe('v0')
    expect(['t1.txt', 't2.txt', 't3.txt'].some((f) => w.exists(f))).toBe(false)
    expect(w.store.listTurns('s').map((t) => t.status)).toEqual(['restored', 'restored', 'restored'])

    await w.store.capture('s/m4')
    w.write('f.txt', 'v4')
    w.write('t4.txt', 'turn 4')
    await w.store.seal('s/m4')
    const one = await w.store.plan({ turnKey: 's/m4' })
    expect(one.warnings).toEqual([])
    expect(one.actions.filter((a) => a.kind === 'conflict')).toEqual([])
    const r2 = await w.store.apply(one)
    expect(r2.warnings).toEqual([])
    expect(w.text('f.txt')).toBe('v0')
    expect(w.exists('t4.txt')).toBe(false)
    // Going back to m4 again after it was undone changes nothing.
    const again = await w.store.plan({ backTo: 's/m4' })
    expect(again.actions.every((a) => a.kind === 'nothing')).toBe(true)
  })

  it('B18: undoing an older turn whose file a newer turn changed gives a clear conflict and offers "undo back to here"', async () => {
    const w = await workspace()
    w.write('f.txt', 'v0')
    await w.store.capture('s/m1')
    w.write('f.txt', 'v1')
    await w.store.seal('s/m1')
    await w.store.capture('s/m2')
    w.write('f.txt', 'v2')
    await w.store.seal('s/m2')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions[0]).toMatchObject({ kind: 'conflict', reason: 'changed by a later turn (m2)' })
    expect(plan.suggestion).toEqual({ backTo: { sessionID: 's', messageID: 'm1' } })
    const back = await w.store.plan(plan.suggestion!)
    expect(back.actions.map((a) => a.kind)).toEqual(['restore'])
    await w.store.apply(back)
    expect(w.text('f.txt')).toBe('v0')
  })

  it('B21: a file that became a folder is a conflict, never an rmtree; a turn that swapped folder for file is restored safely', async () => {
    const w = await workspace()
    w.write('x', 'file x')
    w.write('d/inner.txt', 'inner')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('d'), { recursive: true })
    w.write('d', 'now a file')
    await w.store.seal('s/m1')
    // After the turn the user turns x into a folder with content.
    fs.rmSync(w.p('x'))
    w.write('x/user.txt', 'precious')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.find((a) => a.path === 'x')).toBeUndefined() // x is not part of the turn
    const r = await w.store.apply(plan)
    expect(r.status).toBe('done')
    expect(fs.statSync(w.p('d')).isDirectory()).toBe(true)
    expect(w.text('d/inner.txt')).toBe('inner')
    expect(w.text('x/user.txt')).toBe('precious')

    // Now the reverse: a turn changes a file, the user replaces it with a folder.
    await w.store.capture('s/m2')
    w.write('d/inner.txt', 'changed')
    await w.store.seal('s/m2')
    fs.rmSync(w.p('d/inner.txt'))
    w.write('d/inner.txt/nested', 'user data')
    const p2 = await w.store.plan({ turnKey: 's/m2' })
    expect(p2.actions[0]).toMatchObject({ kind: 'conflict', reason: 'is now a folder, the turn left a file' })
    await w.store.apply(p2, { onConflict: 'restore-rest' })
    expect(w.text('d/inner.txt/nested')).toBe('user data')
  })

  it('B22: a mode-only change after the turn counts as a user edit', async () => {
    const w = await workspace()
    w.write('s.sh', 'echo', 0o644)
    await w.store.capture('s/m1')
    w.write('s.sh', 'echo changed')
    await w.store.seal('s/m1')
    fs.chmodSync(w.p('s.sh'), 0o755)
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions[0]).toMatchObject({ kind: 'conflict', reason: 'permissions changed since the turn' })
    await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(w.text('s.sh')).toBe('echo changed')
    // A turn that only changed the mode is restored (mode put back, content untouched).
    const w2 = await workspace()
    w2.write('t.sh', 'echo', 0o644)
    await w2.store.capture('s/m1')
    fs.chmodSync(w2.p('t.sh'), 0o700)
    await w2.store.seal('s/m1')
    fs.chmodSync(w2.p('t.sh'), 0o755) // user changes it again
    const p2 = await w2.store.plan({ turnKey: 's/m1' })
    expect(p2.actions[0]).toMatchObject({ kind: 'conflict', reason: 'permissions changed since the turn' })
    fs.chmodSync(w2.p('t.sh'), 0o700)
    await w2.store.apply(await w2.store.plan({ turnKey: 's/m1' }))
    expect(fs.statSync(w2.p('t.sh')).mode & 0o777).toBe(0o644)
  })

  it('a plan dropped from memory (64 newer ones kept) asks for a new plan and touches nothing; the newest applies', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a1')
    await w.store.seal('s/m1')
    const oldest = await w.store.plan({ turnKey: 's/m1' })
    let newest = oldest
    for (let i = 0; i < 64; i++) newest = await w.store.plan({ turnKey: 's/m1' })
    const stale = await w.store.apply(oldest)
    expect(stale).toMatchObject({ status: 'cancelled', applied: [], warnings: ['unknown or expired plan; make a new plan'] })
    expect(w.text('a.txt')).toBe('a1')
    expect((await w.store.apply(newest)).status).toBe('done')
    expect(w.text('a.txt')).toBe('a0')
  })

  it('a turn’s change list asked for while its restore runs lists what the turn changed, not the restore’s result', async () => {
    const w = await workspace()
    const name = (i: number) => `src/f${String(i).padStart(3, '0')}.txt`
    // Large enough for their diffs to be made off the main thread: the restore commits meanwhile.
    const big = (i: number, v: string) => Array.from({ length: 2000 }, (_, l) => `big ${i} line ${l} ${l % 50 === 0 ? v : ''}`).join('\n')
    for (let i = 0; i < 10; i++) w.write(`src/a-big${i}.txt`, big(i, 'before'))
    for (let i = 0; i < 200; i++) w.write(name(i), `line ${i}\n`)
    await w.store.capture('s/m1')
    for (let i = 0; i < 10; i++) w.write(`src/a-big${i}.txt`, big(i, 'after'))
    for (let i = 0; i < 200; i++) w.write(name(i), `line ${i}\nadded by the turn\n`)
    w.write('src/zz-new.txt', 'made by the turn\n')
    // Past the racy margin (stat-proof.ts), so the restore's own pre-capture finds nothing new and
    // its post-capture commits into the very state the turn's seal left as head.
    clockPast(w.dir, fs.lstatSync(w.p('src/zz-new.txt')).ctimeMs)
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const listing = w.store.changes('s/m1')
    expect((await w.store.apply(plan)).status).toBe('done')
    expect(w.exists('src/zz-new.txt')).toBe(false)
    expect((await listing).map((c) => `${c.change} ${c.path}`)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `modified src/a-big${i}.txt`),
      ...Array.from({ length: 200 }, (_, i) => `modified ${name(i)}`),
      'added src/zz-new.txt',
    ])
  })

  it('B24: a second restore of the same plan is a no-op without warnings', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a1')
    w.write('b.txt', 'b1')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const first = await w.store.apply(plan)
    expect(first.status).toBe('done')
    const before = await w.store.stats()
    const second = await w.store.apply(plan)
    expect(second).toMatchObject({ status: 'noop', applied: [], skipped: [], failed: [], warnings: [] })
    const replanned = await w.store.plan({ turnKey: 's/m1' })
    expect(replanned.warnings).toEqual([])
    expect(replanned.actions.every((a) => a.kind === 'nothing')).toBe(true)
    expect((await w.store.stats()).snapshots).toBe(before.snapshots)
  })

  it('B25: redo — a restore can itself be undone, including files it deleted', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a1')
    w.write('made.bin', Buffer.from([1, 2, 3]))
    await w.store.seal('s/m1')
    const r = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(w.exists('made.bin')).toBe(false)
    expect(w.store.listTurns('s')[0]!.status).toBe('restored')
    const u = await w.store.undo(r.restoreId!)
    expect(u.status).toBe('done')
    expect(w.text('a.txt')).toBe('a1')
    expect([...w.read('made.bin')]).toEqual([1, 2, 3])
    expect(w.store.listTurns('s')[0]!.status).toBe('sealed')
    // Undoing the undo puts the restore's result back, and the turn is restored (by it) again.
    const again = await w.store.undo(u.restoreId!)
    expect(again.status).toBe('done')
    expect(w.text('a.txt')).toBe('a0')
    expect(w.exists('made.bin')).toBe(false)
    expect(w.store.listTurns('s')[0]).toMatchObject({ status: 'restored', restoredBy: r.restoreId })
    // … and that can be undone in turn: the file the turn made comes back byte for byte.
    await w.store.undo(again.restoreId!)
    expect([...w.read('made.bin')]).toEqual([1, 2, 3])
    expect(w.store.listTurns('s')[0]!.status).toBe('sealed')
  })

  it('undo and redo of a restore leave alone a turn retaken since under the same message id (even one still running)', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    await w.store.capture('s/m1')
    w.write('a.txt', 'a1')
    await w.store.seal('s/m1')
    const r = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(w.text('a.txt')).toBe('a0')
    // ↺: the same message is prompted again; its new turn starts (a fresh pre-image) and runs.
    const retake = await w.store.capture('s/m1')
    expect(retake.created).toBe(true)
    w.write('b.txt', 'written by the retake')
    const u = await w.store.undo(r.restoreId!)
    expect(u.status).toBe('done')
    expect(w.text('a.txt')).toBe('a1')
    expect(w.store.listTurns('s')).toEqual([expect.objectContaining({ status: 'open' })]) // still running: not sealed by the undo
    await w.store.seal('s/m1')
    expect((await w.store.undo(u.restoreId!)).status).toBe('done') // redo
    expect(w.text('a.txt')).toBe('a0')
    expect(w.store.listTurns('s')).toEqual([expect.objectContaining({ status: 'sealed' })]) // the retake is not "restored"
    // And the retake itself can still be rolled back.
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.length).toBeGreaterThan(0)
  })

  it('B28: an unknown, legacy or empty manifest is a no-op with a warning, never a deletion', async () => {
    const w = await workspace()
    w.write('a.txt', 'a0')
    await w.store.capture('s/m1')
    w.write('b.txt', 'created')
    await w.store.seal('s/m1')
    // Damage every snapshot file in three ways, then reopen.
    const snapDir = `${w.storeDir}/snapshots`
    const files = fs.readdirSync(snapDir)
    fs.writeFileSync(`${snapDir}/${files[0]}`, '')
    if (files[1]) fs.writeFileSync(`${snapDir}/${files[1]}`, JSON.stringify({ format: 'retake-checkpoint-snapshot', version: 99 }))
    await w.reopen()
    expect(w.store.warnings.length).toBeGreaterThan(0)
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions).toEqual([])
    expect(plan.warnings.join(' ')).toMatch(/missing or unreadable/)
    const r = await w.store.apply(plan)
    expect(r.status).toBe('noop')
    expect(w.text('b.txt')).toBe('created')
    // A turn record of an unknown format is ignored the same way.
    fs.writeFileSync(`${w.storeDir}/turns/s/m1.json`, JSON.stringify({ format: 'legacy' }))
    await w.reopen()
    const p2 = await w.store.plan({ turnKey: 's/m1' })
    expect(p2.actions).toEqual([])
    expect(p2.warnings[0]).toMatch(/no checkpoint/)
    expect(w.exists('b.txt')).toBe(true)
  })

  it('B29: the UI change list includes every change, binary-only ones too, with line counts', async () => {
    const w = await workspace()
    w.write('code.ts', 'a\nb\nc\n')
    w.write('img.png', Buffer.from([137, 80, 78, 71, 0, 0, 1]))
    w.write('gone.txt', 'x\ny\n')
    await w.store.capture('s/m1')
    w.write('code.ts', 'a\nB\nc\nd\n')
    w.write('img.png', Buffer.from([137, 80, 78, 71, 0, 0, 2]))
    fs.rmSync(w.p('gone.txt'))
    w.write('new.bin', Buffer.from([0, 0, 0]))
    await w.store.seal('s/m1')
    const ch = await w.store.changes('s/m1')
    expect(ch.map((c) => [c.path, c.change, c.binary, c.added, c.removed])).toEqual([
      ['code.ts', 'modified', false, 2, 1],
      ['gone.txt', 'deleted', false, 0, 2],
      ['img.png', 'modified', true, 0, 0],
      ['new.bin', 'added', true, 0, 0],
    ])
  })

  it('a file in a folder whose name starts with two dots (`..cache`) is put back like any other', async () => {
    const w = await workspace()
    w.write('..cache/a.txt', 'v0')
    await w.store.capture('s/m1')
    w.write('..cache/a.txt', 'v1')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.map((a) => [a.path, a.kind])).toEqual([['..cache/a.txt', 'restore']])
    expect((await w.store.apply(plan)).status).toBe('done')
    expect(w.text('..cache/a.txt')).toBe('v0')
  })
})
