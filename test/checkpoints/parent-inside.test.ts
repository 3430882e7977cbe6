// The check that keeps a restore's writes inside its root (paths.ts, assertParentInside): a folder
// on the way that is a link to elsewhere must stop it, however much of the path was resolved for
// earlier steps. The real paths it resolves are kept per restore (`known`), and resolving a deep
// folder below a known one (or the root) keeps the folders in between too.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { assertParentInside } from '../../core/checkpoints/store/paths'

const made: string[] = []
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** A new temporary folder, removed after the test. */
function temp(prefix: string): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  made.push(d)
  return d
}

function root(): string {
  const dir = temp('retake-parents-')
  fs.mkdirSync(path.join(dir, 'a', 'b', 'c'), { recursive: true })
  return dir
}

describe('a step’s folder is inside its root', () => {
  it('resolves a deep folder below a known one, and keeps the folders in between', () => {
    const dir = root()
    const known = new Map<string, string>()
    assertParentInside(dir, path.join(dir, 'a', 'b', 'c', 'x.txt'), known, dir)
    expect(known.get(path.join(dir, 'a', 'b', 'c'))).toBe(path.join(dir, 'a', 'b', 'c'))
    expect(known.get(path.join(dir, 'a', 'b'))).toBe(path.join(dir, 'a', 'b'))
    expect(known.get(path.join(dir, 'a'))).toBe(path.join(dir, 'a'))
  })

  it('a project opened through a link resolves to its real folder', () => {
    const dir = root()
    const via = path.join(temp('retake-via-'), 'project')
    fs.symlinkSync(dir, via)
    const known = new Map<string, string>()
    assertParentInside(dir, path.join(via, 'a', 'b', 'c', 'x.txt'), known, via)
    expect(known.get(path.join(via, 'a', 'b', 'c'))).toBe(path.join(dir, 'a', 'b', 'c'))
    expect(known.get(via)).toBe(dir)
  })

  it('a project folder swapped for a link to elsewhere since it was opened stops it', () => {
    const dir = root()
    const parent = temp('retake-swap-')
    const opened = path.join(parent, 'project')
    fs.renameSync(dir, opened) // the project as it was when opened: a real folder at `opened`
    const elsewhere = path.join(parent, 'elsewhere')
    fs.renameSync(opened, elsewhere)
    fs.symlinkSync(elsewhere, opened)
    const known = new Map<string, string>()
    expect(() => assertParentInside(opened, path.join(opened, 'a', 'b', 'c', 'x.txt'), known, opened)).toThrow(/resolves outside its root/)
    expect(known.size).toBe(0)
  })

  it('a link to outside in the middle of the path stops it, with a known folder above', () => {
    const dir = root()
    const outside = temp('retake-outside-')
    fs.mkdirSync(path.join(outside, 'c'))
    // a/b is now a link to a folder outside the root that has a `c` in it.
    fs.rmSync(path.join(dir, 'a', 'b'), { recursive: true })
    fs.symlinkSync(outside, path.join(dir, 'a', 'b'))
    const known = new Map<string, string>()
    expect(() => assertParentInside(dir, path.join(dir, 'a', 'b', 'c', 'x.txt'), known, dir)).toThrow(/resolves outside its root/)
    expect(known.has(path.join(dir, 'a', 'b'))).toBe(false)
    expect(known.has(path.join(dir, 'a', 'b', 'c'))).toBe(false)
  })

  it('a link that stays inside the root is followed to its real folder', () => {
    const dir = root()
    fs.mkdirSync(path.join(dir, 'real', 'c'), { recursive: true })
    fs.rmSync(path.join(dir, 'a', 'b'), { recursive: true })
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'a', 'b'))
    const known = new Map<string, string>()
    assertParentInside(dir, path.join(dir, 'a', 'b', 'c', 'x.txt'), known, dir)
    expect(known.get(path.join(dir, 'a', 'b', 'c'))).toBe(path.join(dir, 'real', 'c'))
  })

  it('a folder not there yet is judged by the nearest one that is', () => {
    const dir = root()
    const known = new Map<string, string>()
    assertParentInside(dir, path.join(dir, 'a', 'new', 'deeper', 'x.txt'), known, dir)
    expect(known.get(path.join(dir, 'a'))).toBe(path.join(dir, 'a'))
    expect(known.has(path.join(dir, 'a', 'new'))).toBe(false)
  })

  it('a folder whose name only starts with two dots is inside the root; `..` itself is not', () => {
    const dir = root()
    fs.mkdirSync(path.join(dir, '..cache'))
    const known = new Map<string, string>()
    assertParentInside(dir, path.join(dir, '..cache', 'x.txt'), known, dir)
    expect(known.get(path.join(dir, '..cache'))).toBe(path.join(dir, '..cache'))
    expect(() => assertParentInside(path.join(dir, 'a'), path.join(dir, '..cache', 'x.txt'))).toThrow(/resolves outside its root/)
  })

  it('a link to the folder just above the root stops it', () => {
    const dir = root()
    fs.symlinkSync('..', path.join(dir, 'a', 'up'))
    expect(() => assertParentInside(path.join(dir, 'a'), path.join(dir, 'a', 'up', 'x.txt'))).toThrow(/resolves outside its root/)
  })
})
