/** Choosing a project folder without a native dialog: `~` as a shell reads it, and folder listings. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { expandHome, listFolders } from '../../../core/store/folders'
import { AppStores } from '../../../core/store/app-stores'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))
function home(): string {
  const h = mkdtempSync(join(tmpdir(), 'retake-home-'))
  dirs.push(h)
  return h
}

describe('folders', () => {
  it('~ and ~/… are the home folder; other paths resolve as given', () => {
    expect(expandHome('~', '/home/u')).toBe('/home/u')
    expect(expandHome('~/code/app', '/home/u')).toBe('/home/u/code/app')
    expect(expandHome(' /srv/x ', '/home/u')).toBe('/srv/x')
    expect(expandHome('~other/x', '/home/u')).not.toBe('/home/u/other/x')
  })

  it('lists subfolders only, visible first, projects marked, links to folders followed, with the parent', () => {
    const h = home()
    mkdirSync(join(h, 'code', 'app', '.git'), { recursive: true })
    mkdirSync(join(h, 'code', 'notes'))
    mkdirSync(join(h, 'code', '.cache'))
    writeFileSync(join(h, 'code', 'file.txt'), 'x')
    symlinkSync(join(h, 'code', 'notes'), join(h, 'code', 'linked'))
    const l = listFolders('~/code', h)
    expect(l.path).toBe(join(h, 'code'))
    expect(l.parent).toBe(h)
    expect(l.folders.map((f) => [f.name, f.project, f.hidden])).toEqual([
      ['app', true, false],
      ['linked', false, false],
      ['notes', false, false],
      ['.cache', false, true],
    ])
    expect(listFolders(undefined, h).path).toBe(h)
    expect(() => listFolders(join(h, 'code', 'file.txt'), h)).toThrow(/not a folder/)
  })

  it('opening "~/…" opens the folder in the home, not a folder named ~ where Retake runs', () => {
    const h = home()
    mkdirSync(join(h, 'proj'))
    const old = process.env.HOME
    process.env.HOME = h
    try {
      const stores = new AppStores(join(h, 'data'))
      expect(stores.openProject('~/proj').path).toBe(join(h, 'proj'))
    } finally {
      process.env.HOME = old
    }
  })
})
