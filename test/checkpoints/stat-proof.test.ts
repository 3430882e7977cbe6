// The ctime proof (stat-proof.ts): a restore deletes what a turn created without reading it when
// the stat proves it unchanged, and reads everything else — an edit of equal size with its mtime
// set back is still a conflict, and a file the user added in a folder the turn created is kept.
import fs from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BlobStore } from '../../core/checkpoints/store/blobs'
import { ctimeMarginMs, FINE_CTIME_MARGIN_MS, provenSame, trustedCtime } from '../../core/checkpoints/capture/stat-proof'
import type { Entry } from '../../core/checkpoints/types'
import { workspace } from './helpers'

const S_IFREG = fs.constants.S_IFREG
const rec: Entry = { type: 'file', mode: 0o644, size: 10, mtimeMs: 1000.25, ino: 7, hash: 'a'.repeat(64), ctimeMs: 2000.5 }
const st = { mode: S_IFREG | 0o644, size: 10, mtimeMs: 1000.25, ctimeMs: 2000.5, ino: 7 }

/**
 * ctime cannot be set back (that is the proof's premise), so a file is only provable once the
 * clock has passed the racy margin after it was written: a condition on the clock, not a guess at
 * how long some work takes.
 */
async function clockPast(ms: number): Promise<void> {
  while (Date.now() < ms) await new Promise((r) => setImmediate(r))
}

afterEach(() => void vi.restoreAllMocks())

describe('stat proof', () => {
  it('proves a file only when every field the capture recorded with its ctime is still there', () => {
    expect(provenSame(st, rec)).toBe(true)
    expect(provenSame({ ...st, ctimeMs: 2000.75 }, rec)).toBe(false) // any change moves ctime, utimes included
    expect(provenSame({ ...st, mtimeMs: 1000.5 }, rec)).toBe(false)
    expect(provenSame({ ...st, size: 11 }, rec)).toBe(false)
    expect(provenSame({ ...st, ino: 8 }, rec)).toBe(false)
    expect(provenSame({ ...st, mode: S_IFREG | 0o600 }, rec)).toBe(false)
    expect(provenSame({ ...st, mode: fs.constants.S_IFLNK | 0o644 }, rec)).toBe(false)
    expect(provenSame(st, { ...rec, ctimeMs: undefined })).toBe(false) // racy when recorded: read it
    expect(provenSame(st, { ...rec, hash: undefined })).toBe(false)
    expect(provenSame(st, undefined)).toBe(false)
  })

  it('keeps a ctime only when it is older than the capture by the file system’s margin', () => {
    const stat = { ctimeMs: 5000 } as fs.Stats
    expect(trustedCtime(stat, 5000.001)).toBe(5000)
    expect(trustedCtime(stat, 5000)).toBeUndefined()
    expect(ctimeMarginMs(0xef53, 'linux')).toBe(FINE_CTIME_MARGIN_MS) // ext4
    expect(ctimeMarginMs(0x4d44, 'linux')).toBe(3000) // FAT: 2 s times
    expect(ctimeMarginMs(0x6969, 'linux')).toBe(3000) // NFS: another machine's clock
    expect(ctimeMarginMs(undefined, 'linux')).toBe(3000)
    expect(ctimeMarginMs(0xef53, 'darwin')).toBe(3000)
  })

  it('an install folder is deleted without reading what the stat proves; an equal-size edit with its mtime set back is a conflict, a file the user added is kept', async () => {
    const w = await workspace()
    w.write('src/app.ts', 'app\n')
    await w.store.capture('s/m1')
    for (let i = 0; i < 40; i++) w.write(`node_modules/pkg${i % 4}/lib/f${i}.js`, `module ${i}\n`.repeat(20))
    const edited = 'node_modules/pkg1/lib/f5.js'
    const second = Math.floor(Date.now() / 1000) - 60 // whole seconds: utimes can put them back exactly
    fs.utimesSync(w.p(edited), second, second)
    const made = Date.now() // every ctime above is at or before this
    const proven = process.platform === 'linux' && ctimeMarginMs(fs.statfsSync(w.ws).type) === FINE_CTIME_MARGIN_MS
    if (proven) await clockPast(made + FINE_CTIME_MARGIN_MS + 5)
    await w.store.seal('s/m1')
    // After the turn: an edit of the same size, its mtime put back; a new file in the turn's folder.
    const before = fs.statSync(w.p(edited))
    w.write(edited, `MODULE 5\n`.repeat(20))
    fs.utimesSync(w.p(edited), second, second)
    expect(fs.statSync(w.p(edited))).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs, ino: before.ino })
    w.write('node_modules/pkg2/lib/mine.txt', 'the user’s own file')

    const reads = vi.spyOn(BlobStore.prototype, 'hashFile')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const conflict = plan.actions.find((a) => a.path === edited)
    expect(conflict?.kind).toBe('conflict')
    expect(conflict?.reason).toBe('edited since the turn')
    expect(plan.actions.filter((a) => a.kind === 'delete' && a.path.endsWith('.js'))).toHaveLength(39)
    const res = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(res.status).toBe('done')
    // Only the edited file was read (plan and re-check), when the stats could prove the rest.
    if (proven) expect(reads.mock.calls.every(([p]) => p === w.p(edited))).toBe(true)
    expect(w.text(edited)).toBe(`MODULE 5\n`.repeat(20))
    expect(w.text('node_modules/pkg2/lib/mine.txt')).toBe('the user’s own file')
    expect(w.exists('node_modules/pkg0')).toBe(false)
    expect(w.exists('node_modules/pkg3/lib/f3.js')).toBe(false)
    // Its undo puts every deleted file back, from the turn's own record.
    const undo = await w.store.undo(res.restoreId!)
    expect(undo.status).toBe('done')
    for (let i = 0; i < 40; i++) if (i !== 5) expect(w.text(`node_modules/pkg${i % 4}/lib/f${i}.js`)).toBe(`module ${i}\n`.repeat(20))
  })
})
