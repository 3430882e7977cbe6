// Who changed a path a plan would touch (ownership.ts), rule by rule where the engine tests leave
// one open: another project's turn on a folder both checkpoint (a "foreign" turn, told by the host
// with its window and shared folders) counts only if its window met this turn's and the path is in
// a folder both share; what its tools named is its own.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TurnToolUse } from '../../core/checkpoints/attribution'
import type { ForeignTurn } from '../../core/checkpoints/types'
import { workspace } from './helpers'
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

const planWith = (w: Ws, foreign: ForeignTurn[], uses?: Record<string, string[]>) =>
  w.store.plan(
    { turnKey: 's/m1' },
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
