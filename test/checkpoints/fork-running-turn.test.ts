// A session forked while one of its turns runs ("Fork from here" on the turn still answering, files
// left in the same folder): the fork's copy of that turn is taken before the turn's seal. The copy
// is the same work as the original — same folder, same writes — so it must end as the original
// does: the original's retake still rolls back its own files, the fork's copy can be retaken, and
// no later turn of either session takes the copy for another session still running. The fork's
// messages have ids of their own (opencode's fork): the copy is recorded under the fork's id.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { planKnowing, workspace } from './helpers'
import type { Ws } from './helpers'

const kinds = (actions: { path: string; kind: string }[]) => Object.fromEntries(actions.map((a) => [a.path, a.kind]))

/** Turn A/m1 writes early.txt, is forked into B, writes late.txt, then ends (sealed). */
async function forkedWhileRunning(): Promise<Ws> {
  const w = await workspace()
  w.write('keep.txt', 'kept')
  await w.store.capture('A/m1')
  w.write('early.txt', 'before the fork')
  expect(await w.store.forkSession('A', 'B', 'm1', { m1: 'n1' })).toBe(1)
  w.write('late.txt', 'after the fork')
  await w.store.seal('A/m1')
  return w
}

describe('a session forked after its turn ended', () => {
  it('the copy is recorded under the fork’s message id and retaken there; to the original’s retake it is the same work', async () => {
    const w = await workspace()
    await w.store.capture('A/m1')
    w.write('made.txt', 'made')
    await w.store.seal('A/m1')
    expect(await w.store.forkSession('A', 'B', 'm1', { m1: 'n1' })).toBe(1)
    expect(w.store.listTurns('B').map((t) => `${t.turnKey.messageID}:${t.status}`)).toEqual(['n1:sealed'])
    expect(kinds((await w.store.plan({ turnKey: 'A/m1' })).actions)).toEqual({ 'made.txt': 'delete' })
    const p = await w.store.plan({ turnKey: 'B/n1' })
    expect(kinds(p.actions)).toEqual({ 'made.txt': 'delete' })
    expect((await w.store.apply(p)).status).toBe('done')
    expect(w.exists('made.txt')).toBe(false)
  })
  it('a turn that resumes after the fork (a permission pause) takes the copy along: another session’s retake sees it as it sees the original', async () => {
    const w = await workspace()
    await w.store.capture('B/m1')
    await w.store.capture('A/m1')
    w.write('a.txt', 'A’s turn')
    w.write('b.txt', 'B’s turn')
    await w.store.seal('B/m1')
    await w.store.forkSession('B', 'C', 'm1', { m1: 'n1' })
    await w.store.capture('B/m1')
    w.write('b2.txt', 'B’s turn, resumed')
    await w.store.seal('B/m1')
    await w.store.seal('A/m1')
    const p = await planKnowing(w, { turnKey: 'A/m1' }, { 'A/m1': ['a.txt'], 'B/m1': ['b.txt', 'b2.txt'] }).plan
    // As without the fork: A's own file rolled back, B's never (in doubt while both ran: kept).
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'b.txt': 'conflict', 'b2.txt': 'conflict' })
  })
})

describe('a session forked while its turn runs', () => {
  it('the original’s retake still rolls back what its turn wrote before and after the fork, nothing else', async () => {
    const w = await forkedWhileRunning()
    const p = await w.store.plan({ turnKey: 'A/m1' })
    expect(p.warnings).toEqual([])
    expect(kinds(p.actions)).toEqual({ 'early.txt': 'delete', 'late.txt': 'delete' })
    const known = await planKnowing(w, { turnKey: 'A/m1' }, { 'A/m1': ['early.txt', 'late.txt'] }).plan
    expect(kinds(known.actions)).toEqual({ 'early.txt': 'delete', 'late.txt': 'delete' })
    expect((await w.store.apply(p)).status).toBe('done')
    expect([w.exists('early.txt'), w.exists('late.txt'), w.text('keep.txt')]).toEqual([false, false, 'kept'])
  })

  it('the fork’s copy ends with the original: sealed alike, and a retake in the fork rolls the same files back', async () => {
    const w = await forkedWhileRunning()
    expect(w.store.listTurns('B').map((t) => t.status)).toEqual(['sealed'])
    const p = await w.store.plan({ turnKey: 'B/n1' })
    expect(p.warnings).toEqual([])
    expect(kinds(p.actions)).toEqual({ 'early.txt': 'delete', 'late.txt': 'delete' })
    expect((await w.store.apply(p)).status).toBe('done')
    expect([w.exists('early.txt'), w.exists('late.txt'), w.text('keep.txt')]).toEqual([false, false, 'kept'])
  })

  it('a later turn in the fork, and back to the copied turn, are retaken as in any session', async () => {
    const w = await forkedWhileRunning()
    await w.store.capture('B/m2')
    w.write('fork.txt', 'the fork’s own turn')
    await w.store.seal('B/m2')
    const own = await w.store.plan({ turnKey: 'B/m2' })
    expect(kinds(own.actions)).toEqual({ 'fork.txt': 'delete' })
    const back = await w.store.plan({ backTo: 'B/n1' })
    expect(back.warnings).toEqual([])
    expect(kinds(back.actions)).toEqual({ 'early.txt': 'delete', 'late.txt': 'delete', 'fork.txt': 'delete' })
    expect((await w.store.apply(back)).status).toBe('done')
    expect([w.exists('early.txt'), w.exists('late.txt'), w.exists('fork.txt'), w.text('keep.txt')]).toEqual([false, false, false, 'kept'])
  })

  it('a later turn of the original is not taken for one overlapping the fork’s copy', async () => {
    const w = await forkedWhileRunning()
    await w.store.capture('A/m2')
    w.write('next.txt', 'the original’s next turn')
    await w.store.seal('A/m2')
    const p = await planKnowing(w, { turnKey: 'A/m2' }, { 'A/m2': ['next.txt'] }).plan
    expect(kinds(p.actions)).toEqual({ 'next.txt': 'delete' })
  })

  it('the fork’s own seal while the original still runs waits for the original’s: the copy never holds the fork’s later work', async () => {
    const w = await workspace()
    await w.store.capture('A/m1')
    w.write('early.txt', 'before the fork')
    await w.store.forkSession('A', 'B', 'm1', { m1: 'n1' })
    // The fork runs a turn and goes idle first: the host seals every open turn of B.
    await w.store.capture('B/m2')
    w.write('fork.txt', 'the fork’s own turn')
    await w.store.seal('B/n1')
    await w.store.seal('B/m2')
    expect(w.store.listTurns('B').map((t) => t.status)).toEqual(['open', 'sealed'])
    w.write('late.txt', 'after the fork')
    await w.store.seal('A/m1')
    expect(w.store.listTurns('B').map((t) => t.status)).toEqual(['sealed', 'sealed'])
    // Only fork.txt changed while the fork's own turn ran beside A's: that one alone is in doubt.
    const p = await planKnowing(w, { turnKey: 'A/m1' }, { 'A/m1': ['early.txt', 'late.txt'], 'B/m2': ['fork.txt'] }).plan
    expect(kinds(p.actions)).toEqual({ 'early.txt': 'delete', 'late.txt': 'delete', 'fork.txt': 'not-this-turn' })
    const copy = await w.store.plan({ turnKey: 'B/n1' })
    expect(kinds(copy.actions)).toMatchObject({ 'early.txt': 'delete', 'late.txt': 'delete' })
  })

  it('a copy an earlier version left open takes the original’s after-state at the fork’s next seal', async () => {
    const w = await forkedWhileRunning()
    const file = path.join(w.storeDir, 'turns', 'B', 'n1.json')
    const record = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>
    fs.writeFileSync(file, JSON.stringify({ ...record, post: null, status: 'open', sealedAt: undefined }))
    await w.reopen()
    expect(w.store.listTurns('B').map((t) => t.status)).toEqual(['open'])
    w.write('fork.txt', 'written since')
    await w.store.seal('B/n1')
    const p = await w.store.plan({ turnKey: 'B/n1' })
    expect(kinds(p.actions)).toEqual({ 'early.txt': 'delete', 'late.txt': 'delete' })
    expect(kinds((await w.store.plan({ turnKey: 'A/m1' })).actions)).toEqual({ 'early.txt': 'delete', 'late.txt': 'delete' })
  })

  it('an original that resumes after its first seal (a permission pause) takes its copy along to the last seal', async () => {
    const w = await forkedWhileRunning()
    // The session goes idle at a permission question, then the same turn goes on and ends again.
    await w.store.capture('A/m1')
    w.write('resumed.txt', 'after the pause')
    await w.store.seal('A/m1')
    const p = await w.store.plan({ turnKey: 'A/m1' })
    expect(p.warnings).toEqual([])
    expect(kinds(p.actions)).toEqual({ 'early.txt': 'delete', 'late.txt': 'delete', 'resumed.txt': 'delete' })
    expect(kinds((await w.store.plan({ turnKey: 'B/n1' })).actions)).toEqual({ 'early.txt': 'delete', 'late.txt': 'delete', 'resumed.txt': 'delete' })
  })

  it('a fork of the fork, also taken while the turn ran, ends with the original too', async () => {
    const w = await workspace()
    await w.store.capture('A/m1')
    await w.store.forkSession('A', 'B', 'm1', { m1: 'n1' })
    await w.store.forkSession('B', 'C', 'n1', { n1: 'o1' })
    w.write('made.txt', 'made')
    await w.store.seal('A/m1')
    expect(w.store.listTurns().map((t) => `${t.turnKey.sessionID}:${t.status}`)).toEqual(['A:sealed', 'B:sealed', 'C:sealed'])
    const p = await w.store.plan({ turnKey: 'A/m1' })
    expect(kinds(p.actions)).toEqual({ 'made.txt': 'delete' })
  })
})
