// The restore of an install turn: hundreds of deletes, each judged a moment before its unlink.
// What a user would notice if it went wrong: a file left behind, a file they changed while the
// restore ran deleted after all (an edit of equal size with its mtime put back included: only its
// ctime tells), their copy of a package deleted through a folder swapped for a link, or a kept file
// reported against the wrong path.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { clockPast, workspace } from './helpers'

const made: string[] = []
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/**
 * A turn that installed `n` files in `folders` packages under `installed/`, sealed with every ctime
 * a proof (stat-proof.ts: the steps prove most files by their lstat alone), and its restore's plan.
 */
async function installTurn(n: number, folders: number, mtime?: (w: Awaited<ReturnType<typeof workspace>>, i: number) => void) {
  const w = await workspace()
  w.write('src/app.ts', 'app')
  await w.store.capture('s/m1')
  for (let i = 0; i < n; i++) {
    w.write(`installed/p${i % folders}/f${i}.js`, `f${i}`)
    mtime?.(w, i)
  }
  clockPast(w.ws, fs.lstatSync(w.p(`installed/p${(n - 1) % folders}/f${n - 1}.js`)).ctimeMs)
  await w.store.seal('s/m1')
  return { w, plan: await w.store.plan({ turnKey: 's/m1' }) }
}

describe('an install turn’s restore', () => {
  it('removes every file and folder; files the user changed meanwhile are kept and reported in step order', async () => {
    // Whole seconds: utimes can put such an mtime back exactly.
    const second = Math.floor(Date.now() / 1000) - 60
    const sameSize = 'installed/p5/f593.js'
    const { w, plan } = await installTurn(600, 7, (w, i) => {
      if (i === 593) fs.utimesSync(w.p(sameSize), second, second)
    })
    const keys: string[] = []
    const r = await w.store.apply(
      plan,
      {},
      {
        onStep: (i, s) => {
          keys.push(s.key)
          if (i !== 10) return
          // While the first deletes run, to files whose steps are still to come: one edited, one
          // replaced by a folder of the user's, one removed by the user, one edited at equal size
          // with its mtime put back (its ctime moved: nothing else tells), one given its own mode
          // again (its ctime moved, its content did not: it is deleted).
          w.write('installed/p6/f594.js', 'edited by the user')
          fs.rmSync(w.p('installed/p3/f101.js'))
          w.write('installed/p3/f101.js/notes.txt', 'the user’s folder')
          fs.rmSync(w.p('installed/p1/f8.js'))
          const before = fs.lstatSync(w.p(sameSize))
          w.write(sameSize, 'g593')
          fs.utimesSync(w.p(sameSize), second, second)
          expect(fs.lstatSync(w.p(sameSize))).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs, ino: before.ino })
          fs.chmodSync(w.p('installed/p4/f599.js'), fs.statSync(w.p('installed/p4/f599.js')).mode)
        },
      },
    )
    expect(r.failed).toEqual([])
    // In step order: the files, then the folders that still hold them (deepest first).
    expect(r.skipped.map((s) => s.path)).toEqual(['installed/p3/f101.js', sameSize, 'installed/p6/f594.js', 'installed/p3', 'installed/p5', 'installed/p6', 'installed'])
    expect(keys.indexOf(sameSize)).toBeGreaterThan(10)
    expect(w.text(sameSize)).toBe('g593')
    expect(w.exists('installed/p4')).toBe(false)
    expect(w.text('installed/p6/f594.js')).toBe('edited by the user')
    expect(w.text('installed/p3/f101.js/notes.txt')).toBe('the user’s folder')
    expect(fs.readdirSync(w.p('installed/p6'))).toEqual(['f594.js'])
    expect(fs.readdirSync(w.p('installed')).sort()).toEqual(['p3', 'p5', 'p6'])
    expect(w.text('src/app.ts')).toBe('app')
  })

  it('a folder swapped for a link while the restore runs: the same bytes behind the link are never deleted', async () => {
    const w = await workspace()
    await w.store.capture('s/m1')
    // The steps reach folder z's files last, after the swap.
    for (let i = 0; i < 500; i++) w.write(`installed/b${i % 5}/f${i}.js`, `f${i}`)
    for (let i = 0; i < 100; i++) w.write(`installed/z/f${i}.js`, `f${i}`)
    clockPast(w.ws, fs.lstatSync(w.p('installed/z/f99.js')).ctimeMs)
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    // The user's copy of that folder (a package store's, say: the same bytes), elsewhere.
    const users = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-install-user-'))
    const moved = `${users}-moved`
    made.push(users, moved)
    for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(users, `f${i}.js`), `f${i}`)
    let swapped = false
    const r = await w.store.apply(
      plan,
      {},
      {
        onStep: (_i, s) => {
          // After the steps have been in folder z: they judged it once, then it became a link.
          if (swapped || s.key !== 'installed/z/f50.js') return
          swapped = true
          fs.renameSync(w.p('installed/z'), moved)
          fs.symlinkSync(users, w.p('installed/z'))
        },
      },
    )
    expect(swapped).toBe(true)
    expect(r.failed).toEqual([])
    expect(fs.readdirSync(users).length).toBe(100)
    expect(fs.readFileSync(path.join(users, 'f7.js'), 'utf8')).toBe('f7')
    expect(fs.readlinkSync(w.p('installed/z'))).toBe(users)
    expect(fs.readdirSync(w.p('installed'))).toEqual(['z'])
  })
})
