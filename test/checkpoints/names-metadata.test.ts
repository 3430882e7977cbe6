// Names and metadata around a restore: a name as long as a folder entry allows, the mode of a folder
// a restore has to make again, a file over the size cap that a restore would replace, and a mode
// set back on a file with two names.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { workspace } from './helpers'

describe('names and metadata', () => {
  it('a file whose name takes 239 of the 255 bytes allowed is put back, and so is its undo', async () => {
    const w = await workspace()
    const name = `${'n'.repeat(235)}.txt` // 239 bytes
    w.write(`dir/${name}`, 'before\n')
    await w.store.capture('s/m1')
    w.write(`dir/${name}`, 'after the turn\n')
    await w.store.seal('s/m1')
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(res.failed).toEqual([])
    expect(res.status).toBe('done')
    expect(w.text(`dir/${name}`)).toBe('before\n')
    expect(fs.readdirSync(w.p('dir'))).toEqual([name]) // no temp file left beside it
    const undo = await w.store.undo(res.restoreId!)
    expect(undo.status).toBe('done')
    expect(w.text(`dir/${name}`)).toBe('after the turn\n')
  })

  it('a folder a restore makes again on its way to a file gets its recorded mode, not the umask', async () => {
    const old = process.umask(0o022)
    try {
      const w = await workspace()
      w.write('secret/keys/k.txt', 'key 1\n')
      fs.chmodSync(w.p('secret'), 0o700)
      fs.chmodSync(w.p('secret/keys'), 0o750)
      await w.store.capture('s/m1')
      w.write('secret/keys/k.txt', 'key 2\n')
      await w.store.seal('s/m1')
      // The user removes the whole folder after the turn; rolling the file back makes it again.
      fs.rmSync(w.p('secret'), { recursive: true })
      const plan = await w.store.plan({ turnKey: 's/m1' })
      const gone = plan.actions.find((a) => a.path === 'secret/keys/k.txt')!
      expect(gone.kind).toBe('conflict')
      const res = await w.store.apply(plan, { overwrite: [gone.id] })
      expect(res.failed).toEqual([])
      expect(w.text('secret/keys/k.txt')).toBe('key 1\n')
      expect(fs.statSync(w.p('secret')).mode & 0o777).toBe(0o700)
      expect(fs.statSync(w.p('secret/keys')).mode & 0o777).toBe(0o750)
      // Its undo removes what the restore made (the folders were absent before it).
      expect((await w.store.undo(res.restoreId!)).status).toBe('done')
      expect(w.exists('secret')).toBe(false)
    } finally {
      process.umask(old)
    }
  })

  it('a file over the size cap that a restore would replace is named in the plan before it is confirmed', async () => {
    const w = await workspace({ maxFileBytes: 1000 })
    w.write('data.bin', 'small\n')
    w.write('notes.txt', 'v1\n')
    await w.store.capture('s/m1')
    w.write('data.bin', Buffer.alloc(5000, 1)) // the turn grows it past the cap
    w.write('notes.txt', 'v2\n')
    await w.store.seal('s/m1')
    const plan = await w.store.plan({ turnKey: 's/m1' })
    expect(plan.actions.find((a) => a.path === 'data.bin')!.kind).toBe('restore')
    expect(plan.warnings.filter((m) => m.includes('Undo cannot bring it back'))).toEqual([
      'data.bin is over the 1000 bytes limit now: its current content is not kept, so Undo cannot bring it back',
    ])
  })
})

describe('a file with two names in the root', () => {
  it('a mode the turn changed through one name is set back once, with no false "changed since" report', async () => {
    const w = await workspace()
    w.write('run.sh', 'echo hi\n')
    fs.chmodSync(w.p('run.sh'), 0o755)
    fs.linkSync(w.p('run.sh'), w.p('also-run.sh'))
    await w.store.capture('s/m1')
    fs.chmodSync(w.p('also-run.sh'), 0o644) // both names show it: one file
    await w.store.seal('s/m1')
    const res = await w.store.apply(await w.store.plan({ turnKey: 's/m1' }))
    expect(res.skipped).toEqual([])
    expect(res.status).toBe('done')
    expect(fs.statSync(w.p('run.sh')).mode & 0o777).toBe(0o755)
    expect(fs.statSync(w.p('also-run.sh')).mode & 0o777).toBe(0o755)
  })
})
