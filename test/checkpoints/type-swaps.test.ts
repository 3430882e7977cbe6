// A turn that changes what a path IS — file, folder or symlink — is undone
// exactly, in all nine transitions, with links that point inside the project (a restore must never
// write a folder's old files through a link into another folder). When the user has since filled
// what the turn made, the restore keeps the user's files and says so instead of failing half-way.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { treeSnapshot, workspace } from './helpers'
import type { Ws } from './helpers'

type Kind = 'file' | 'dir' | 'link'
const KINDS: Kind[] = ['file', 'dir', 'link']

/** Put `kind` at `p`; `v` tells the before (0) and after (1) versions apart. */
function make(w: Ws, p: string, kind: Kind, v: 0 | 1): void {
  if (kind === 'file') w.write(p, `file v${v}`)
  else if (kind === 'dir') {
    w.write(`${p}/a.txt`, `a v${v}`)
    w.write(`${p}/sub/b.txt`, `b v${v}`)
    if (v === 1) w.write(`${p}/new.txt`, 'made by the turn')
  } else fs.symlinkSync(v === 0 ? 'shared' : 'other', w.p(p)) // links into the project
}

async function swapTurn(from: Kind, to: Kind) {
  const w = await workspace()
  // Folders the links point at: real project content that must never be written through a link.
  w.write('shared/a.txt', 'shared content')
  w.write('shared/sub/b.txt', 'shared b')
  w.write('other/a.txt', 'other content, same name as a file of P')
  make(w, 'P', from, 0)
  const before = treeSnapshot(w.ws)
  await w.store.capture('s/m1')
  fs.rmSync(w.p('P'), { recursive: true })
  make(w, 'P', to, 1)
  await w.store.seal('s/m1')
  return { w, before, after: treeSnapshot(w.ws) }
}

describe('type swaps are undone exactly (class 3)', () => {
  for (const from of KINDS) {
    for (const to of KINDS) {
      it(`${from} → ${to}: the restore brings back the ${from}, its undo the ${to}`, async () => {
        const { w, before, after } = await swapTurn(from, to)
        const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
        expect(res.failed).toEqual([])
        expect(res.skipped).toEqual([])
        expect(treeSnapshot(w.ws)).toEqual(before)
        const undo = await w.store.undo(res.restoreId!)
        expect(undo.failed).toEqual([])
        expect(treeSnapshot(w.ws)).toEqual(after)
      })
    }
  }

  it('a folder the turn made where a file was, since filled by the user: the folder and their file stay, the rest is restored and the file is reported', async () => {
    const { w } = await swapTurn('file', 'dir')
    w.write('P/mine.txt', 'the user’s notes')
    w.write('x.txt', 'x')
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }), { onConflict: 'restore-rest' })
    expect(res.failed).toEqual([])
    expect(w.text('P/mine.txt')).toBe('the user’s notes')
    expect(res.skipped.map((s) => s.path)).toContain('P')
    expect(w.exists('P/new.txt')).toBe(false) // the turn's own files in it are gone
  })

  it('a file the turn made where a folder was, since edited by the user: the folder’s files are not forced back under it', async () => {
    const { w } = await swapTurn('dir', 'file')
    w.write('P', 'the user kept writing here')
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }), { onConflict: 'restore-rest' })
    expect(res.failed).toEqual([])
    expect(w.text('P')).toBe('the user kept writing here')
    expect(res.skipped.map((s) => s.path)).toEqual(expect.arrayContaining(['P', 'P/a.txt']))
  })

  it('a link the turn made where a folder was, since re-pointed by the user: nothing is written through it', async () => {
    const { w } = await swapTurn('dir', 'link')
    fs.rmSync(w.p('P'))
    fs.symlinkSync('shared', w.p('P'))
    const sharedBefore = treeSnapshot(w.p('shared'))
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }), { onConflict: 'restore-rest' })
    expect(res.failed).toEqual([])
    expect(treeSnapshot(w.p('shared'))).toEqual(sharedBefore)
    expect(fs.readlinkSync(w.p('P'))).toBe('shared')
    expect(res.skipped.map((s) => s.path)).toEqual(expect.arrayContaining(['P', 'P/a.txt', 'P/sub/b.txt']))
  })

  // Found by the soak (seed 741600660): the same with a link out of the project reported each file
  // below it as a failure ("resolves outside its root") and the restore as partial, where the link
  // is simply the user's, kept, with nothing written through it.
  it('a link the turn made where a folder was, since re-pointed out of the project: kept and said, not a failure', async () => {
    const { w } = await swapTurn('dir', 'link')
    const outside = path.join(w.dir, 'outside') // beside the project, not in it
    fs.mkdirSync(outside)
    fs.writeFileSync(path.join(outside, 'a.txt'), 'not the project’s')
    fs.rmSync(w.p('P'))
    fs.symlinkSync(outside, w.p('P'))
    const outsideBefore = treeSnapshot(outside)
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }), { onConflict: 'restore-rest' })
    expect(res.failed).toEqual([])
    expect(res.status).toBe('done')
    expect(treeSnapshot(outside)).toEqual(outsideBefore)
    expect(fs.readlinkSync(w.p('P'))).toBe(outside)
    const below = res.skipped.filter((s) => s.path.startsWith('P/'))
    expect(below.map((s) => s.path)).toEqual(expect.arrayContaining(['P/a.txt', 'P/sub/b.txt']))
    for (const s of below) expect(s.reason).toMatch(/the folder P above it is a link now/)
  })
})
