// The attribution rule's pure decisions, case by case: who a changed path belongs to when turns
// overlap, and when a change counts as made outside the agent. A wrong answer here reverts another
// session's (or the user's) work, so each branch has a case that fails when it is changed (found
// by `npm run test:mutation`, which left these branches untested by the end-to-end cases).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { changedOutsideAgent, named, ownerInOverlap, realPathOfNamed } from '../../core/checkpoints/plan/attribution'
import type { TurnToolUse } from '../../core/checkpoints/types'

const use = (paths: string[], opaque = false): TurnToolUse => ({ paths: new Set(paths), opaque })
const FILE = '/p/src/a.txt'

describe('named: what a turn’s tools wrote', () => {
  it('a folder counts when a named path lies inside it, never a folder that only shares its prefix', () => {
    expect(named(use(['/p/src/a.txt']), ['/p/src'], true)).toBe(true)
    expect(named(use(['/p/srcfoo/a.txt']), ['/p/src'], true)).toBe(false)
    // A file is named only by its own path, not by a path below it.
    expect(named(use(['/p/src/a.txt']), ['/p/src'], false)).toBe(false)
  })

  it('a relative path a tool reported names nothing and breaks nothing', () => {
    expect(named(use(['rel/a.txt']), ['/q'], true)).toBe(false)
    expect(realPathOfNamed('package.json')).toBeNull()
  })

  it('a path named through a linked folder counts as its real path, also once it was deleted', () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'retake-attr-')))
    try {
      fs.mkdirSync(path.join(dir, 'src'))
      fs.symlinkSync(path.join(dir, 'src'), path.join(dir, 'lnk'))
      expect(named(use([path.join(dir, 'lnk', 'gone.txt')]), [path.join(dir, 'src', 'gone.txt')], false)).toBe(true)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('ownerInOverlap: two sessions’ turns ran at once', () => {
  it('this turn’s when it named the path and the other could not have written it', () => {
    expect(ownerInOverlap(use([FILE]), use(['/p/other.txt']), [FILE], false)).toBe('this')
  })

  it('the other’s when it named the path and this turn could not have written it', () => {
    expect(ownerInOverlap(use(['/p/mine.txt']), use([FILE]), [FILE], false)).toBe('other')
  })

  it('nobody can tell when either side could have written anywhere or is unknown', () => {
    // This turn ran a shell, or its tools are unknown: it may have written the other's file too.
    expect(ownerInOverlap(use([], true), use([FILE]), [FILE], false)).toBe('unknown')
    expect(ownerInOverlap(undefined, use([FILE]), [FILE], false)).toBe('unknown')
    expect(ownerInOverlap(use([FILE]), use([], true), [FILE], false)).toBe('unknown')
    expect(ownerInOverlap(use([FILE]), undefined, [FILE], false)).toBe('unknown')
    // Both named it.
    expect(ownerInOverlap(use([FILE]), use([FILE]), [FILE], false)).toBe('unknown')
  })
})

describe('changedOutsideAgent: no other turn ran', () => {
  it('only when this turn’s tools are known, none could write anywhere, and none named the path', () => {
    expect(changedOutsideAgent(use(['/p/other.txt']), [FILE], false)).toBe(true)
    expect(changedOutsideAgent(use([FILE]), [FILE], false)).toBe(false)
    expect(changedOutsideAgent(use([], true), [FILE], false)).toBe(false)
    expect(changedOutsideAgent(undefined, [FILE], false)).toBe(false)
  })
})
