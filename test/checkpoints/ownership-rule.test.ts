// Who changed a path a plan would touch (ownership.ts), rule by rule where the engine tests leave
// one open: another project's turn on a folder both checkpoint (a "foreign" turn, told by the host
// with its window and shared folders) counts only if its window met this turn's and the path is in
// a folder both share; what its tools named is its own.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TurnToolUse } from '../../core/checkpoints/plan/attribution'
import type { ForeignTurn } from '../../core/checkpoints/types'
import { planKnowing, workspace } from './helpers'
import type { Ws } from './helpers'

const kinds = (actions: { path: string; kind: string }[]) => Object.fromEntries(actions.map((a) => [a.path, a.kind]))
const other = { sessionID: 'other-project', messageID: 'm9' }

/** This project's turn s/m1 writes shared/a.txt, shared-not/b.txt and c.txt; its window in ms. */
async function turn(): Promise<{ w: Ws; start: number; end: number; real: string }> {
  const w = await workspace()
  w.write('keep.txt', 'k')
  await w.store.capture('s/m1')
  w.write('shared/a.txt', 'a')
  w.write('shared-not/b.txt', 'b')
  w.write('c.txt', 'c')
  await w.store.seal('s/m1')
  const t = w.store.listTurns('s')[0]!
  return { w, start: t.createdAt, end: t.sealedAt!, real: fs.realpathSync(w.ws) }
}

const planWith = (w: Ws, foreign: ForeignTurn[], uses?: Record<string, string[]>, turnKey = 's/m1') =>
  w.store.plan(
    { turnKey },
    {
      foreign,
      ...(uses && {
        toolUse: async () => (t) => {
          const u = uses[`${t.sessionID}/${t.messageID}`]
          return u && ({ paths: new Set(u.map((p) => path.join(w.ws, p))), opaque: false } satisfies TurnToolUse)
        },
      }),
    },
  )

describe('another project’s turn on a shared folder', () => {
  it('running during this turn: what changed in the folder both share is kept unless chosen, nothing outside it', async () => {
    const { w, start, end, real } = await turn()
    const p = await planWith(w, [{ turn: other, createdAt: start - 1, sealedAt: end + 1, paths: [path.join(real, 'shared')] }])
    expect(kinds(p.actions)).toEqual({ 'c.txt': 'delete', shared: 'conflict', 'shared/a.txt': 'conflict', 'shared-not': 'delete', 'shared-not/b.txt': 'delete' })
    expect(p.actions.find((a) => a.path === 'shared/a.txt')!.reason).toBe('changed while session other-project was running: kept unless you roll it back')
    await w.store.apply(p, { onConflict: 'restore-rest' })
    expect(w.text('shared/a.txt')).toBe('a')
    expect(w.exists('shared-not/b.txt')).toBe(false)
  })

  it('sharing several folders: a path in any one of them is in doubt', async () => {
    const { w, start, end, real } = await turn()
    const p = await planWith(w, [{ turn: other, createdAt: start, sealedAt: end, paths: [path.join(real, 'elsewhere'), path.join(real, 'shared')] }])
    expect(kinds(p.actions)['shared/a.txt']).toBe('conflict')
    expect(kinds(p.actions)['c.txt']).toBe('delete')
  })

  it('a folder opened through a link: what its tools named by the real path is this turn’s', async () => {
    const w = await workspace({ roots: (ws, dir) => (fs.symlinkSync(ws, path.join(dir, 'via-link')), [{ path: path.join(dir, 'via-link') }]) })
    await w.store.capture('sesA/m2')
    w.write('a.txt', 'by A')
    w.write('e.txt', 'the editor’s')
    await w.store.seal('sesA/m2')
    const real = fs.realpathSync(w.ws)
    const p = await w.store.plan(
      { turnKey: 'sesA/m2' },
      { toolUse: async () => (t) => (t.sessionID === 'sesA' ? { paths: new Set([path.join(real, 'a.txt')]), opaque: false } : undefined) },
    )
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'e.txt': 'conflict' })
  })

  it('still running (not sealed) and started before this turn ended: it counts', async () => {
    const { w, end, real } = await turn()
    const p = await planWith(w, [{ turn: other, createdAt: end - 1, paths: [real] }])
    expect(kinds(p.actions)['c.txt']).toBe('conflict')
  })

  it('ended before this turn began, or began after it ended: it does not count', async () => {
    const { w, start, end, real } = await turn()
    const before = await planWith(w, [{ turn: other, createdAt: start - 100, sealedAt: start, paths: [real] }])
    expect(kinds(before.actions)['c.txt']).toBe('delete')
    const after = await planWith(w, [{ turn: other, createdAt: end, paths: [real] }])
    expect(kinds(after.actions)['c.txt']).toBe('delete')
  })

  it('what its tools named and this turn’s did not is its own work: left as it is, never offered', async () => {
    const { w, start, end, real } = await turn()
    const uses = { 's/m1': ['c.txt', 'shared-not/b.txt'], 'other-project/m9': ['shared/a.txt'] }
    const p = await planWith(w, [{ turn: other, createdAt: start, sealedAt: end, paths: [real] }], uses)
    expect(kinds(p.actions)['shared/a.txt']).toBe('not-this-turn')
    expect(p.actions.find((a) => a.path === 'shared/a.txt')!.reason).toBe("written by session other-project's turn, not this one: left as it is")
    // This turn's own files, named by its tools, are rolled back.
    expect(kinds(p.actions)['c.txt']).toBe('delete')
    expect(kinds(p.actions)['shared-not/b.txt']).toBe('delete')
  })
})

describe('restores and other sessions during a turn', () => {
  it('a file an undo of a retake took away during this turn is the undo’s doing: left as it is, and said so', async () => {
    const w = await workspace()
    await w.store.capture('sesB/m1')
    w.write('f.txt', 'made by B')
    await w.store.seal('sesB/m1')
    const retake = await w.store.apply(await w.store.plan({ turnKey: 'sesB/m1' }))
    expect(w.exists('f.txt')).toBe(false)
    await w.store.capture('sesA/m2')
    w.write('a.txt', 'by A')
    // While A runs, the user undoes the retake of B: f.txt is back.
    expect((await w.store.undo(retake.restoreId!)).status).toBe('done')
    await w.store.seal('sesA/m2')
    const { plan } = planKnowing(w, 'sesA/m2', { 'sesA/m2': ['a.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'f.txt': 'not-this-turn' })
    expect(p.actions.find((a) => a.path === 'f.txt')!.reason).toBe('put back by a restore (an undo of a retake) during this turn, not this one: left as it is')
    await w.store.apply(p)
    expect(w.text('f.txt')).toBe('made by B')
  })

  it('the host is asked about the turns that can matter: this one and other sessions’ turns that overlapped it, not restored ones', async () => {
    const w = await workspace()
    await w.store.capture('sesC/m0') // ended before A began: never asked
    w.write('c.txt', 'by C')
    await w.store.seal('sesC/m0')
    await w.store.capture('sesB/m1') // overlaps A, then is retaken: not asked
    await w.store.capture('sesD/m3') // overlaps A
    await w.store.capture('sesA/m2')
    w.write('a.txt', 'by A')
    w.write('d.txt', 'by D')
    await w.store.seal('sesD/m3')
    await w.store.seal('sesB/m1')
    await w.store.seal('sesA/m2')
    await w.store.capture('sesE/m4') // began after A ended: never asked
    w.write('e.txt', 'by E')
    await w.store.seal('sesE/m4')
    // B's retake keeps what the other sessions may have written (conflicts) and marks B restored.
    await w.store.apply(await w.store.plan({ turnKey: 'sesB/m1' }), { onConflict: 'restore-rest' })
    expect(w.store.listTurns('sesB')[0]!.status).toBe('restored')
    const { plan, asked } = planKnowing(w, 'sesA/m2', { 'sesA/m2': ['a.txt'], 'sesD/m3': ['d.txt'] })
    const p = await plan
    expect(asked.sort()).toEqual(['sesA/m2', 'sesD/m3'])
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'd.txt': 'not-this-turn' })
  })

  it('a retake made before this turn began is not a restore during it: what the turn then deleted comes back', async () => {
    const w = await workspace()
    w.write('f.txt', 'the user’s')
    await w.store.capture('sesB/m1')
    fs.rmSync(w.p('f.txt'))
    await w.store.seal('sesB/m1')
    await w.store.apply(await w.store.plan({ turnKey: 'sesB/m1' }))
    expect(w.text('f.txt')).toBe('the user’s')
    await w.store.capture('sesA/m2')
    fs.rmSync(w.p('f.txt')) // A's shell deleted it
    await w.store.seal('sesA/m2')
    const plan = w.store.plan({ turnKey: 'sesA/m2' }, { toolUse: async () => (t) => (t.sessionID === 'sesA' ? { paths: new Set<string>(), opaque: true } : undefined) })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ 'f.txt': 'recreate' })
    await w.store.apply(p)
    expect(w.text('f.txt')).toBe('the user’s')
  })
})

describe('a folder a turn made, by the files its tools wrote in it', () => {
  it('alongside another session’s turn: the folder this turn’s tools wrote into is rolled back with them, the other’s work is left', async () => {
    const w = await workspace()
    await w.store.capture('sesB/m1')
    await w.store.capture('sesA/m2')
    w.write('made/x.txt', 'by A')
    w.write('b.txt', 'by B')
    await w.store.seal('sesA/m2')
    await w.store.seal('sesB/m1')
    const { plan } = planKnowing(w, 'sesA/m2', { 'sesA/m2': ['made/x.txt'], 'sesB/m1': ['b.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ made: 'delete', 'made/x.txt': 'delete', 'b.txt': 'not-this-turn' })
    await w.store.apply(p)
    expect(w.exists('made')).toBe(false)
    expect(w.text('b.txt')).toBe('by B')
  })

  it('with no other turn running: the folder is the turn’s, not a change outside the agent; an editor’s file is', async () => {
    const w = await workspace()
    await w.store.capture('sesA/m2')
    w.write('made/x.txt', 'by A')
    w.write('e.txt', 'the editor’s')
    await w.store.seal('sesA/m2')
    const { plan } = planKnowing(w, 'sesA/m2', { 'sesA/m2': ['made/x.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ made: 'delete', 'made/x.txt': 'delete', 'e.txt': 'conflict' })
    expect(p.actions.find((a) => a.path === 'e.txt')!.reason).toBe('changed outside the agent during this turn (none of its tools wrote it): kept unless you roll it back')
  })

  it('alongside another project’s turn on a shared folder: a folder is whoever’s tools wrote into it', async () => {
    const { w, start, end, real } = await turn()
    const uses = { 's/m1': ['c.txt', 'shared-not/b.txt'], 'other-project/m9': ['shared/a.txt'] }
    const p = await planWith(w, [{ turn: other, createdAt: start, sealedAt: end, paths: [real] }], uses)
    expect(kinds(p.actions)).toEqual({ 'c.txt': 'delete', shared: 'not-this-turn', 'shared/a.txt': 'not-this-turn', 'shared-not': 'delete', 'shared-not/b.txt': 'delete' })
  })
})

describe('forked sessions’ copies of turns', () => {
  /** sesB's turn ran alongside sesA's; sesB is then forked to sesB-fork (a copy of its records). */
  async function forkedAlongside(): Promise<Ws> {
    const w = await workspace()
    await w.store.capture('sesB/m1')
    await w.store.capture('sesA/m2')
    w.write('a.txt', 'by A')
    w.write('b.txt', 'by B')
    await w.store.seal('sesA/m2')
    await w.store.seal('sesB/m1')
    expect(await w.store.forkSession('sesB', 'sesB-fork')).toBe(1)
    return w
  }

  it('a retake in the fork itself undoes the turn as in the original, which is the same work', async () => {
    const w = await workspace()
    await w.store.capture('s/m1')
    w.write('made.txt', 'made')
    await w.store.seal('s/m1')
    expect(await w.store.forkSession('s', 's-fork')).toBe(1)
    const p = await w.store.plan({ turnKey: 's-fork/m1' })
    expect(kinds(p.actions)).toEqual({ 'made.txt': 'delete' })
  })

  it('the fork’s copy of the other session’s turn is not one more turn: what the other’s tools cleared stays cleared', async () => {
    const w = await forkedAlongside()
    // The host knows the original's tool use; of the copy it knows nothing.
    const { plan } = planKnowing(w, 'sesA/m2', { 'sesA/m2': ['a.txt'], 'sesB/m1': ['b.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'b.txt': 'not-this-turn' })
  })

  it('with the original session deleted, the forks’ copies stand for its turn', async () => {
    const w = await forkedAlongside()
    expect(await w.store.forkSession('sesB', 'sesB-fork2')).toBe(1)
    await w.store.deleteSession('sesB')
    const { plan } = planKnowing(w, 'sesA/m2', { 'sesA/m2': ['a.txt'], 'sesB-fork/m1': ['b.txt'], 'sesB-fork2/m1': ['b.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'b.txt': 'not-this-turn' })
    expect(p.actions.find((a) => a.path === 'b.txt')!.reason).toBe("written by session sesB-fork's turn, not this one: left as it is")
  })
})

describe('which restores and turns met this turn’s window', () => {
  it('a file a retake took away during this turn, of unknown tool use, is kept unless chosen, and the retake is named', async () => {
    const w = await workspace()
    await w.store.capture('sesB/m1')
    w.write('f.txt', 'by B')
    await w.store.seal('sesB/m1')
    await w.store.capture('sesA/m2')
    w.write('a.txt', 'by A')
    expect((await w.store.apply(await w.store.plan({ turnKey: 'sesB/m1' }))).status).toBe('done')
    await w.store.seal('sesA/m2')
    const p = await w.store.plan({ turnKey: 'sesA/m2' })
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'f.txt': 'conflict' })
    expect(p.actions.find((a) => a.path === 'f.txt')!.reason).toBe('put back by a restore (the retake of session sesB) during this turn: kept unless you roll it back')
    await w.store.apply(p, { onConflict: 'restore-rest' })
    expect(w.exists('f.txt')).toBe(false)
  })

  it('a folder an undo put back during this turn, that this turn’s tools then wrote into, is nobody’s for sure: kept unless chosen', async () => {
    const w = await workspace()
    await w.store.capture('sesB/m1')
    w.write('d/f.txt', 'by B')
    await w.store.seal('sesB/m1')
    const retake = await w.store.apply(await w.store.plan({ turnKey: 'sesB/m1' }))
    expect(w.exists('d')).toBe(false)
    await w.store.capture('sesA/m2')
    expect((await w.store.undo(retake.restoreId!)).status).toBe('done')
    w.write('d/g.txt', 'by A')
    await w.store.seal('sesA/m2')
    const { plan } = planKnowing(w, 'sesA/m2', { 'sesA/m2': ['d/g.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ d: 'conflict', 'd/f.txt': 'not-this-turn', 'd/g.txt': 'delete' })
    expect(p.actions.find((a) => a.path === 'd')!.reason).toBe('put back by a restore (an undo of a retake) during this turn: kept unless you roll it back')
    await w.store.apply(p, { onConflict: 'restore-rest' })
    expect(w.text('d/f.txt')).toBe('by B')
    expect(w.exists('d/g.txt')).toBe(false)
  })

  it('a retake made right after this turn ended is not a restore during it: once undone, the turn’s edit is its own again', async () => {
    const w = await workspace()
    await w.store.capture('sesB/m1')
    w.write('f.txt', 'by B')
    await w.store.seal('sesB/m1')
    await w.store.capture('sesA/m2')
    w.write('f.txt', 'edited by A')
    await w.store.seal('sesA/m2')
    // Right after A, with nothing changed between, B is retaken and the user chooses to take f.txt too.
    const pb = await w.store.plan({ turnKey: 'sesB/m1' })
    expect(kinds(pb.actions)).toEqual({ 'f.txt': 'conflict' })
    const retake = await w.store.apply(pb, { overwrite: [pb.actions[0]!.id] })
    expect(w.exists('f.txt')).toBe(false)
    // Undone: A's edit is back, and retaking A puts B's version back.
    expect((await w.store.undo(retake.restoreId!)).status).toBe('done')
    const p = await w.store.plan({ turnKey: 'sesA/m2' })
    expect(kinds(p.actions)).toEqual({ 'f.txt': 'restore' })
    await w.store.apply(p)
    expect(w.text('f.txt')).toBe('by B')
  })
})

describe('a path marked by one rule is not marked again by the next', () => {
  /** sesB, sesC and sesA run together: A writes a.txt, someone x.txt. */
  async function threeTogether(): Promise<Ws> {
    const w = await workspace()
    await w.store.capture('sesB/m1')
    await w.store.capture('sesC/m3')
    await w.store.capture('sesA/m2')
    w.write('a.txt', 'by A')
    w.write('x.txt', 'by B or C')
    await w.store.seal('sesA/m2')
    await w.store.seal('sesC/m3')
    await w.store.seal('sesB/m1')
    return w
  }

  it('a file another running session may have written stays a conflict naming it, though a third session’s tools named it', async () => {
    const w = await threeTogether()
    // B's tools named neither file (nobody can tell who wrote x.txt); C's named x.txt.
    const { plan } = planKnowing(w, 'sesA/m2', { 'sesA/m2': ['a.txt'], 'sesB/m1': [], 'sesC/m3': ['x.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'x.txt': 'conflict' })
    expect(p.actions.find((a) => a.path === 'x.txt')!.reason).toBe('changed while session sesB was running: kept unless you roll it back')
  })

  it('a file two other sessions’ tools named is left as the first one’s work', async () => {
    const w = await threeTogether()
    const { plan } = planKnowing(w, 'sesA/m2', { 'sesA/m2': ['a.txt'], 'sesB/m1': ['x.txt'], 'sesC/m3': ['x.txt'] })
    const p = await plan
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'x.txt': 'not-this-turn' })
    expect(p.actions.find((a) => a.path === 'x.txt')!.reason).toBe("written by session sesB's turn, not this one: left as it is")
  })

  it('what another session of this project may have written, or wrote, is not taken for another project’s turn’s work', async () => {
    const w = await workspace()
    await w.store.capture('sesB/m1')
    await w.store.capture('sesA/m2')
    w.write('a.txt', 'by A')
    w.write('x.txt', 'by B or the other project')
    w.write('y.txt', 'by B, named by both')
    await w.store.seal('sesA/m2')
    await w.store.seal('sesB/m1')
    const t = w.store.listTurns('sesA')[0]!
    const p = await planWith(
      w,
      [{ turn: other, createdAt: t.createdAt, sealedAt: t.sealedAt!, paths: [fs.realpathSync(w.ws)] }],
      {
        'sesA/m2': ['a.txt'],
        'sesB/m1': ['y.txt'],
        'other-project/m9': ['x.txt', 'y.txt'],
      },
      'sesA/m2',
    )
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'x.txt': 'conflict', 'y.txt': 'not-this-turn' })
    expect(p.actions.find((a) => a.path === 'x.txt')!.reason).toBe('changed while session sesB was running: kept unless you roll it back')
    expect(p.actions.find((a) => a.path === 'y.txt')!.reason).toBe("written by session sesB's turn, not this one: left as it is")
  })
})

describe('only what changed while the windows overlapped is in doubt', () => {
  it('a file this turn wrote before another session’s turn began stays its own; one written during both is kept unless chosen', async () => {
    const w = await workspace()
    await w.store.capture('sesA/m2')
    w.write('early.txt', 'by A, alone')
    await w.store.capture('sesB/m1')
    w.write('late.txt', 'by A or B')
    await w.store.seal('sesB/m1')
    w.write('after.txt', 'by A, alone again')
    await w.store.seal('sesA/m2')
    const p = await w.store.plan({ turnKey: 'sesA/m2' })
    expect(kinds(p.actions)).toEqual({ 'early.txt': 'delete', 'late.txt': 'conflict', 'after.txt': 'delete' })
  })

  it('a turn that ended before this one began is not in doubt, though the file changed between them too', async () => {
    const w = await workspace()
    await w.store.capture('sesB/m1')
    w.write('b.txt', 'by B')
    await w.store.seal('sesB/m1')
    w.write('x.txt', 'the user’s')
    await w.store.capture('sesA/m2')
    w.write('x.txt', 'by A')
    await w.store.seal('sesA/m2')
    const p = await w.store.plan({ turnKey: 'sesA/m2' })
    expect(kinds(p.actions)).toEqual({ 'x.txt': 'restore' })
    await w.store.apply(p)
    expect(w.text('x.txt')).toBe('the user’s')
  })
})
