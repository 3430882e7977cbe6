// A conflict the user chose to roll back (apply's `overwrite`) is rolled back only as the plan
// showed it: planner.ts gives each conflict the hash of what is on disk now (`actualHash`), and
// apply's re-check compares it. Changed again after the plan, the file is kept; as the plan showed
// it (a file, or nothing there), it is rolled back. One test per kind of conflict classify makes.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Plan } from '../../core/checkpoints/types'
import { planKnowing, workspace } from './helpers'

const kinds = (actions: { path: string; kind: string }[]) => Object.fromEntries(actions.map((a) => [a.path, a.kind]))
const idOf = (p: Plan, rel: string) => p.actions.find((a) => a.path === rel)!.id
const AGAIN = 'changed again after the plan was made; not overwritten'

describe('a conflict chosen to be rolled back', () => {
  it('edited since the turn: rolled back as the plan showed it, kept when edited again after the plan; one deleted since comes back', async () => {
    const w = await workspace()
    for (const f of ['x.txt', 'y.txt', 'z.txt']) w.write(f, `${f} before`)
    await w.store.capture('s/m1')
    for (const f of ['x.txt', 'y.txt', 'z.txt']) w.write(f, `${f} by the turn`)
    await w.store.seal('s/m1')
    w.write('x.txt', 'x by the user')
    w.write('y.txt', 'y by the user')
    fs.rmSync(w.p('z.txt'))
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(kinds(plan.actions)).toEqual({ 'x.txt': 'conflict', 'y.txt': 'conflict', 'z.txt': 'conflict' })
    w.write('y.txt', 'y by the user, again after the plan')
    const r = await w.store.apply(plan, { overwrite: ['x.txt', 'y.txt', 'z.txt'].map((f) => idOf(plan, f)) })
    expect(r.skipped).toEqual([expect.objectContaining({ path: 'y.txt', reason: AGAIN })])
    expect(w.text('x.txt')).toBe('x.txt before')
    expect(w.text('y.txt')).toBe('y by the user, again after the plan')
    expect(w.text('z.txt')).toBe('z.txt before')
  })

  it('changed outside the agent during the turn: rolled back as the plan showed it, kept when edited again after the plan', async () => {
    const w = await workspace()
    w.write('notes.md', 'notes v1')
    w.write('todo.md', 'todo v1')
    w.write('gone.md', 'deleted in my editor during the turn')
    await w.store.capture('sesA/m1')
    w.write('src/a.ts', 'by A') // A's write tool
    w.write('notes.md', 'notes v2, typed in my editor during the turn')
    w.write('todo.md', 'todo v2, typed in my editor during the turn')
    fs.rmSync(w.p('gone.md'))
    await w.store.seal('sesA/m1')
    const plan = await planKnowing(w, 'sesA/m1', { 'sesA/m1': ['src/a.ts'] }).plan
    expect(kinds(plan.actions)).toEqual({ src: 'delete', 'src/a.ts': 'delete', 'notes.md': 'conflict', 'todo.md': 'conflict', 'gone.md': 'conflict' })
    expect(new Set(plan.actions.filter((a) => a.kind === 'conflict').map((a) => a.reason))).toEqual(
      new Set(['changed outside the agent during this turn (none of its tools wrote it): kept unless you roll it back']),
    )
    w.write('todo.md', 'todo v3, after the plan')
    const r = await w.store.apply(plan, { onConflict: 'restore-rest', overwrite: ['notes.md', 'todo.md', 'gone.md'].map((f) => idOf(plan, f)) })
    expect(r.skipped).toEqual([expect.objectContaining({ path: 'todo.md', reason: AGAIN })])
    expect(w.text('notes.md')).toBe('notes v1')
    expect(w.text('todo.md')).toBe('todo v3, after the plan')
    expect(w.text('gone.md')).toBe('deleted in my editor during the turn')
    expect(w.exists('src')).toBe(false)
  })

  it('changed while another session’s turn ran: rolled back as the plan showed it, kept when edited again after the plan', async () => {
    const w = await workspace()
    for (const f of ['p.txt', 'q.txt', 'r.txt']) w.write(f, `${f} v0`)
    await w.store.capture('sesA/m1')
    await w.store.capture('sesB/m2')
    w.write('a.txt', 'by A')
    w.write('p.txt', 'p by A or B')
    w.write('q.txt', 'q by A or B')
    fs.rmSync(w.p('r.txt'))
    await w.store.seal('sesB/m2')
    await w.store.seal('sesA/m1')
    // What B's tools wrote is not known: it may have written any of these (A's file too).
    const plan = await planKnowing(w, 'sesA/m1', { 'sesA/m1': ['a.txt'] }).plan
    expect(kinds(plan.actions)).toEqual({ 'a.txt': 'conflict', 'p.txt': 'conflict', 'q.txt': 'conflict', 'r.txt': 'conflict' })
    expect(new Set(plan.actions.filter((a) => a.kind === 'conflict').map((a) => a.reason))).toEqual(
      new Set(['changed while session sesB was running: kept unless you roll it back']),
    )
    w.write('q.txt', 'q by the user, after the plan')
    const r = await w.store.apply(plan, { onConflict: 'restore-rest', overwrite: ['p.txt', 'q.txt', 'r.txt'].map((f) => idOf(plan, f)) })
    expect(r.skipped.find((s) => s.path === 'q.txt')!.reason).toBe(AGAIN)
    expect(r.skipped.map((s) => s.path).sort()).toEqual(['a.txt', 'q.txt'])
    expect(w.text('p.txt')).toBe('p.txt v0')
    expect(w.text('q.txt')).toBe('q by the user, after the plan')
    expect(w.text('r.txt')).toBe('r.txt v0')
    expect(w.text('a.txt')).toBe('by A')
  })
})
