// The folder lane: a restore's deletes resolve names from inside their folder (folder-lane.ts). The
// process's working folder is shared by everything in it, so what a user would notice is that it is
// always given back, and that a folder swapped for a link is never worked in.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FolderLane } from '../../core/checkpoints/folder-lane'
import { workspace } from './helpers'

const home = process.cwd()
afterEach(() => process.chdir(home))

function tree(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'retake-lane-')))
  fs.mkdirSync(path.join(dir, 'a', 'b'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'a', 'b', 'x.txt'), 'x')
  return dir
}

describe('the folder lane', () => {
  it('names a file inside the folder it entered, and gives the working folder back', () => {
    const dir = tree()
    const folder = path.join(dir, 'a', 'b')
    const lane = new FolderLane(true)
    expect(lane.at(path.join(folder, 'x.txt'), new Map([[folder, folder]]))).toBe('x.txt')
    expect(process.cwd()).toBe(folder)
    expect(fs.readFileSync('x.txt', 'utf8')).toBe('x')
    lane.leave()
    expect(process.cwd()).toBe(home)
  })

  it('never enters a folder the steps did not judge, nor one swapped for a link since', () => {
    const dir = tree()
    const folder = path.join(dir, 'a', 'b')
    const lane = new FolderLane(true)
    expect(lane.at(path.join(folder, 'x.txt'), new Map())).toBe(path.join(folder, 'x.txt'))
    expect(process.cwd()).toBe(home)
    // Judged a real folder, then replaced by a link to another one: chdir would follow the link.
    const elsewhere = path.join(dir, 'elsewhere')
    fs.mkdirSync(elsewhere)
    fs.writeFileSync(path.join(elsewhere, 'x.txt'), 'not the turn’s')
    fs.renameSync(folder, path.join(dir, 'moved'))
    fs.symlinkSync(elsewhere, folder)
    expect(lane.at(path.join(folder, 'x.txt'), new Map([[folder, folder]]))).toBe(path.join(folder, 'x.txt'))
    expect(process.cwd()).toBe(home)
  })

  it('an install turn’s restore removes its files and leaves the working folder where it was, a kept file too', async () => {
    const w = await workspace()
    w.write('src/app.ts', 'app')
    await w.store.capture('s/m1')
    for (const pkg of ['alpha', 'beta', 'gamma']) for (let i = 0; i < 30; i++) w.write(`node_modules/${pkg}/lib/f${i}.js`, `${pkg} ${i}`)
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    // The user edits a file of the last package while the deletes are running.
    const r = await w.store.apply(plan, {}, { onStep: (i) => void (i === 40 && w.write('node_modules/gamma/lib/f7.js', 'edited by the user')) })
    expect(process.cwd()).toBe(home)
    expect(r.skipped.map((s) => s.path)).toContain('node_modules/gamma/lib/f7.js')
    expect(w.text('node_modules/gamma/lib/f7.js')).toBe('edited by the user')
    expect(w.exists('node_modules/alpha')).toBe(false)
    expect(w.exists('node_modules/gamma/lib/f8.js')).toBe(false)
    expect(w.text('src/app.ts')).toBe('app')
  })
})
