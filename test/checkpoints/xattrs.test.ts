// Extended attributes through a restore and its Undo: a desktop tag (`user.xdg.tags`) on a file the
// turn overwrote comes back with the content, a tag the user added after the turn is shown in the
// plan and kept, a tag the turn removed comes back, and a folder made again gets its attributes.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { readXattrs, restoreXattrs, xattrNotes } from '../../core/checkpoints/store/xattrs'
import { workspace } from './helpers'

type X = {
  getAttributeSync(p: string, n: string): Buffer | null
  setAttributeSync(p: string, n: string, v: Uint8Array): void
  removeAttributeSync(p: string, n: string): void
  listAttributesSync(p: string): string[]
}

/** The module, if it loads and user attributes can be set in the temporary folder here. */
function userXattrs(): X | null {
  let x: X
  try {
    x = createRequire(import.meta.url)('@napi-rs/xattr') as X
  } catch {
    return null
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retake-xattr-probe-'))
  try {
    fs.writeFileSync(path.join(dir, 'f'), '')
    x.setAttributeSync(path.join(dir, 'f'), 'user.probe', Buffer.from('1'))
    return x
  } catch {
    return null
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const x = userXattrs()
if (!x) console.warn('extended attributes: skipped, user.* attributes cannot be set here (no module, or a file system without them)')
const TAGS = 'user.xdg.tags'
const tag = (f: string): string | null => x!.getAttributeSync(f, TAGS)?.toString() ?? null
const setTag = (f: string, v: string): void => x!.setAttributeSync(f, TAGS, Buffer.from(v))

describe.skipIf(!x)('extended attributes', () => {
  it('a tagged file the turn overwrote comes back with its content and its tag; Undo puts back the turn’s', async () => {
    const w = await workspace()
    w.write('notes.txt', 'before\n')
    setTag(w.p('notes.txt'), 'work,important')
    x!.setAttributeSync(w.p('notes.txt'), 'user.comment', Buffer.from([0, 1, 2, 255]))
    await w.store.capture('s/m1')
    // The turn rewrites the file through a new inode (as editors and tools do): the attributes go.
    fs.writeFileSync(w.p('notes.new'), 'after the turn\n')
    fs.renameSync(w.p('notes.new'), w.p('notes.txt'))
    setTag(w.p('notes.txt'), 'draft')
    await w.store.seal('s/m1')
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(res.status).toBe('done')
    expect(res.warnings).toEqual([])
    expect(w.text('notes.txt')).toBe('before\n')
    expect(tag(w.p('notes.txt'))).toBe('work,important')
    expect(x!.getAttributeSync(w.p('notes.txt'), 'user.comment')).toEqual(Buffer.from([0, 1, 2, 255]))
    const undo = await w.store.undo(res.restoreId!)
    expect(undo.status).toBe('done')
    expect(w.text('notes.txt')).toBe('after the turn\n')
    expect(tag(w.p('notes.txt'))).toBe('draft')
    expect(x!.listAttributesSync(w.p('notes.txt'))).toEqual([TAGS])
  })

  it('a tag the turn removed comes back, though the content never changed', async () => {
    const w = await workspace()
    w.write('photo.jpg', 'jpeg bytes')
    setTag(w.p('photo.jpg'), 'holiday')
    w.write('other.txt', 'v1\n')
    await w.store.capture('s/m1')
    x!.removeAttributeSync(w.p('photo.jpg'), TAGS)
    w.write('other.txt', 'v2\n')
    await w.store.seal('s/m1')
    expect((await w.store.changes('s/m1')).map((c) => c.path).sort()).toEqual(['other.txt', 'photo.jpg'])
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.find((a) => a.path === 'photo.jpg')?.kind).toBe('restore')
    const res = await w.store.apply(plan)
    expect(res.status).toBe('done')
    expect(tag(w.p('photo.jpg'))).toBe('holiday')
    expect(w.text('photo.jpg')).toBe('jpeg bytes')
    // Undo takes it off again, as the turn left it.
    expect((await w.store.undo(res.restoreId!)).status).toBe('done')
    expect(tag(w.p('photo.jpg'))).toBeNull()
  })

  it('a tag the user added after the turn is a change the plan shows, kept unless overwritten', async () => {
    const w = await workspace()
    w.write('report.md', 'v1\n')
    await w.store.capture('s/m1')
    w.write('report.md', 'v2\n')
    await w.store.seal('s/m1')
    setTag(w.p('report.md'), 'review')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    const a = plan.actions.find((p) => p.path === 'report.md')!
    expect(a.kind).toBe('conflict')
    expect(a.reason).toBe('tags or extended attributes changed since the turn')
    const kept = await w.store.apply(plan, { onConflict: 'restore-rest' })
    expect(kept.skipped.map((s) => s.path)).toEqual(['report.md'])
    expect(w.text('report.md')).toBe('v2\n')
    expect(tag(w.p('report.md'))).toBe('review')
    // Chosen: rolled back, and Undo brings back the user's tagged version.
    const again = await w.store.plan({ turnKey: 's/m1' })
    const res = await w.store.apply(again, { overwrite: [again.actions.find((p) => p.path === 'report.md')!.id] })
    expect(res.status).toBe('done')
    expect(w.text('report.md')).toBe('v1\n')
    expect(tag(w.p('report.md'))).toBeNull()
    expect((await w.store.undo(res.restoreId!)).status).toBe('done')
    expect(w.text('report.md')).toBe('v2\n')
    expect(tag(w.p('report.md'))).toBe('review')
  })

  it('a tag added between turns is in the next capture: retaking that turn keeps it', async () => {
    const w = await workspace()
    w.write('a.txt', 'v1\n')
    await w.store.capture('s/m1')
    w.write('a.txt', 'v2\n')
    await w.store.seal('s/m1')
    setTag(w.p('a.txt'), 'blue')
    await w.store.capture('s/m2')
    w.write('a.txt', 'v3\n') // same inode: the tag stays through the turn
    x!.removeAttributeSync(w.p('a.txt'), TAGS)
    await w.store.seal('s/m2')
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m2' }))
    expect(res.status).toBe('done')
    expect(w.text('a.txt')).toBe('v2\n')
    expect(tag(w.p('a.txt'))).toBe('blue')
  })

  it('a tagged folder the turn deleted comes back with its tag', async () => {
    const w = await workspace()
    w.write('album/one.txt', '1\n')
    setTag(w.p('album'), 'family')
    await w.store.capture('s/m1')
    fs.rmSync(w.p('album'), { recursive: true })
    await w.store.seal('s/m1')
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(res.status).toBe('done')
    expect(w.text('album/one.txt')).toBe('1\n')
    expect(tag(w.p('album'))).toBe('family')
  })

  it('an attribute the system refuses is a warning of the restore, the rest is written; system labels are left alone', async () => {
    const w = await workspace()
    w.write('f.txt', 'x\n')
    const f = w.p('f.txt')
    x!.setAttributeSync(f, 'user.stale', Buffer.from('not recorded'))
    let label = false
    try {
      x!.setAttributeSync(f, 'security.retake-test', Buffer.from('label'))
      label = true
    } catch {
      /* no security.* attributes for this process here: that part is not checked */
    }
    const b64 = (v: string): string => Buffer.from(v).toString('base64')
    const env = {}
    // An ACL that is not one: refused (EINVAL, or ENOTSUP where ACLs are off), never a failure.
    restoreXattrs(env, f, 'f.txt', [
      ['system.posix_acl_access', b64('not an acl')],
      ['user.xdg.tags', b64('green')],
    ])
    expect(xattrNotes(env)).toEqual(['f.txt: extended attributes not restored (system.posix_acl_access)'])
    expect(tag(f)).toBe('green')
    expect(x!.getAttributeSync(f, 'user.stale')).toBeNull() // not recorded: removed
    if (label) {
      expect(x!.getAttributeSync(f, 'security.retake-test')?.toString()).toBe('label')
      expect(readXattrs(f)).toEqual([['user.xdg.tags', b64('green')]])
    }
  })
})
