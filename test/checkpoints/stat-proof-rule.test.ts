// The ctime "delete proof" (stat-proof.ts), rule by rule where the engine tests leave one open: a
// record of anything but a plain file proves nothing, and a root's file system type is known only
// where statfs answers (elsewhere the coarse margin holds).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ctimeMarginMs, fsTypeOf, provable, provenSame, RACY_MARGIN_MS } from '../../core/checkpoints/capture/stat-proof'
import type { Entry } from '../../core/checkpoints/types'

const st = { mode: fs.constants.S_IFREG | 0o644, size: 10, mtimeMs: 1000.25, ctimeMs: 2000.5, ino: 7 }
const file: Entry = { type: 'file', mode: 0o644, size: 10, mtimeMs: 1000.25, ino: 7, hash: 'a'.repeat(64), ctimeMs: 2000.5 }

describe('stat proof rules', () => {
  it('only a hashed file’s record can be proven by a stat: never a link’s, a folder’s or an oversize file’s', () => {
    expect(provable(file)).toBe(true)
    for (const type of ['symlink', 'dir', 'oversize'] as const) {
      expect(provable({ ...file, type })).toBe(false)
      expect(provenSame(st, { ...file, type })).toBe(false)
    }
  })

  it('a root’s file system type comes from statfs; a path statfs cannot read has none, and gets the coarse margin', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-statfs-'))
    try {
      expect(fsTypeOf(dir)).toBe(fs.statfsSync(dir).type)
      expect(fsTypeOf(path.join(dir, 'missing'))).toBeUndefined()
      expect(ctimeMarginMs(fsTypeOf(path.join(dir, 'missing')), 'linux')).toBe(RACY_MARGIN_MS)
    } finally {
      fs.rmSync(dir, { recursive: true })
    }
  })
})
