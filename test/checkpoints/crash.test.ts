// Crash tests: a child process doing a restore is killed at random points (several seeds); on
// reopen every file holds either its pre- or post-restore content and the journal completes.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openCheckpointStore } from '../../core/checkpoints/index'
import { runChild, seededBytes, sha, workspace } from './helpers'
import type { Ws } from './helpers'

const CHILD = path.join(__dirname, 'children/restore-child.ts')

/** Turn s/m1 modifies 12 files (some 2 MB), creates 6 in new folders and deletes 6. */
async function setup(): Promise<{ w: Ws; pre: Map<string, string | null>; post: Map<string, string | null>; steps: number }> {
  const w = await workspace()
  for (let i = 0; i < 12; i++) w.write(`mod/f${i}.bin`, seededBytes(i + 1, i % 3 === 0 ? 2 << 20 : 4096))
  for (let i = 0; i < 6; i++) w.write(`del/d${i}.txt`, `delete me ${i}\n`)
  await w.store.capture('s/m1')
  for (let i = 0; i < 12; i++) w.write(`mod/f${i}.bin`, seededBytes(100 + i, i % 3 === 0 ? 2 << 20 : 4096))
  for (let i = 0; i < 6; i++) w.write(`new/n${i % 2}/c${i}.txt`, `created ${i}\n`)
  for (let i = 0; i < 6; i++) fs.rmSync(w.p(`del/d${i}.txt`))
  await w.store.seal('s/m1')
  const plan = await w.store.plan({ turnKey: 's/m1' })
  // pre = restore target (before the turn), post = now (after the turn).
  const pre = new Map<string, string | null>()
  const post = new Map<string, string | null>()
  for (let i = 0; i < 12; i++) {
    pre.set(`mod/f${i}.bin`, sha(seededBytes(i + 1, i % 3 === 0 ? 2 << 20 : 4096)))
    post.set(`mod/f${i}.bin`, w.sha(`mod/f${i}.bin`))
  }
  for (let i = 0; i < 6; i++) {
    pre.set(`del/d${i}.txt`, sha(`delete me ${i}\n`))
    post.set(`del/d${i}.txt`, null)
    pre.set(`new/n${i % 2}/c${i}.txt`, null)
    post.set(`new/n${i % 2}/c${i}.txt`, sha(`created ${i}\n`))
  }
  await w.store.close()
  const steps = plan.actions.filter((a) => a.kind !== 'nothing').length
  return { w, pre, post, steps }
}

function stateOf(w: Ws, file: string): string | null {
  return w.exists(file) ? w.sha(file) : null
}

function leftoverTemps(root: string): string[] {
  const out: string[] = []
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name))
      else if (e.name.includes('.retake-')) out.push(e.name)
    }
  }
  walk(root)
  return out
}

async function crashAndCheck(mode: 'step' | 'rename' | 'timer', n: number, tearJournal = false): Promise<'before-intent' | 'mid-restore' | 'finished'> {
  const { w, pre, post } = await setup()
  const res = await runChild(CHILD, [w.storeDir, w.ws, mode, String(n)], mode === 'timer' ? { killAfterOutput: { text: 'steps-start', ms: n } } : {})
  // After the kill, before recovery: each file is whole — its old or its new content.
  for (const [file, before] of pre) expect([before, post.get(file)], `${file} after kill (${mode} ${n})`).toContain(stateOf(w, file))
  const journalDir = path.join(w.storeDir, 'journal')
  const journals = fs.existsSync(journalDir) ? fs.readdirSync(journalDir) : []
  // A kill during the commit's own fsync leaves a journal that already ends with `commit`: the
  // restore is complete and opening only removes the file (nothing to recover, nothing reported).
  const journalText = journals.length ? fs.readFileSync(path.join(journalDir, journals[0]!), 'utf8') : ''
  const committed = journalText.includes('{"type":"commit"}')
  // The journal file is made, then its intent written and fsynced: a kill in between leaves a
  // journal without a whole intent line, i.e. nothing ran (recovery drops it, reporting nothing).
  const durable = journalText.includes('"type":"intent"') && journalText.includes('\n')
  if (tearJournal && journals.length) fs.appendFileSync(path.join(journalDir, journals[0]!), '{"type":"done","i":')
  const store = await openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }] })
  w.store = store
  const killed = res.signal === 'SIGKILL'
  if (durable && !committed) expect(store.recovered.length, 'an interrupted restore is completed on open').toBe(1)
  expect(fs.existsSync(journalDir) ? fs.readdirSync(journalDir) : []).toEqual([])
  expect(leftoverTemps(w.ws)).toEqual([])
  const restored = store.listTurns('s')[0]!.status === 'restored'
  if (durable || restored) {
    // The restore went through (completed by recovery): every file is at its pre-turn state.
    expect(restored).toBe(true)
    for (const [file, before] of pre) expect(stateOf(w, file), file).toBe(before)
  } else {
    // Killed before the intent was durable: nothing was touched and the turn is not restored.
    expect(killed).toBe(true)
    for (const [file, after] of post) expect(stateOf(w, file), file).toBe(after)
  }
  return durable ? 'mid-restore' : restored ? 'finished' : 'before-intent'
}

describe('crash safety', () => {
  it('B7: atomic replace — a kill just before a rename leaves the old content, never a truncated file', async () => {
    for (const n of [0, 3, 7]) await crashAndCheck('rename', n)
  })

  it('B8: the journal is written before acting, every step marked done, and an interrupted restore completes on open (torn last line tolerated)', async () => {
    const { w } = await setup()
    const res = await runChild(CHILD, [w.storeDir, w.ws, 'step', '0'])
    expect(res.signal).toBe('SIGKILL')
    const jdir = path.join(w.storeDir, 'journal')
    const [name] = fs.readdirSync(jdir)
    const lines = fs.readFileSync(path.join(jdir, name!), 'utf8').trim().split('\n')
    const intent = JSON.parse(lines[0]!)
    expect(intent.type).toBe('intent')
    expect(intent.steps.length).toBe(27) // 12 rewrites + 6 recreations + 6 deletions + 3 created folders, all up front
    expect(lines.length).toBe(1) // killed before step 0 ran
    // The turn is not marked restored while its journal is pending.
    expect(JSON.parse(fs.readFileSync(path.join(w.storeDir, 'turns/s/m1.json'), 'utf8')).status).toBe('sealed')
    for (const n of [5, 17]) await crashAndCheck('step', n, true)
  })

  it('a path kept as the user left it before the kill is still reported once recovery completes the restore', async () => {
    const w = await workspace()
    w.write('keep.txt', 'before\n')
    await w.store.capture('s/m1')
    w.write('new/t.txt', 'made by the turn\n')
    w.write('keep.txt', 'after\n')
    await w.store.seal('s/m1')
    w.write('new/mine.txt', 'the user wrote this in the folder the turn made\n')
    await w.store.close()
    // Steps: unlink new/t.txt, rmdir new (kept: it holds the user's file), write keep.txt ← killed here.
    const res = await runChild(CHILD, [w.storeDir, w.ws, 'step', '2'])
    expect(res.signal).toBe('SIGKILL')
    w.store = await openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }] })
    expect(w.text('keep.txt')).toBe('before\n')
    expect(w.text('new/mine.txt')).toContain('the user wrote this')
    expect(w.store.recoveredRestores).toHaveLength(1)
    expect(w.store.recoveredRestores[0]!.skipped.map((k) => k.path)).toEqual(['new'])
    expect(w.store.recovered[0]).toContain('1 kept as they are: "new"')
  })

  it('Crash, edit, undo: a file the user edits while the app is down after a kill is never overwritten by recovery or by Undo', async () => {
    const w = await workspace()
    w.write('a.txt', 'a before\n')
    w.write('b.txt', 'b before\n')
    w.write('c.txt', 'c before\n')
    w.write('a0.sh', 'echo\n', 0o644)
    await w.store.capture('s/m1')
    fs.chmodSync(w.p('a0.sh'), 0o755) // a mode-only step, done before the kill and left alone
    w.write('n.txt', 'made by the turn\n')
    w.write('a.txt', 'a after the turn\n')
    w.write('b.txt', 'b after the turn\n')
    w.write('c.txt', 'c after the turn\n')
    await w.store.seal('s/m1')
    await w.store.close()
    // Steps: unlink n.txt, write a.txt, chmod a0.sh, write b.txt ← killed here, write c.txt.
    const res = await runChild(CHILD, [w.storeDir, w.ws, 'step', '3'])
    expect(res.signal).toBe('SIGKILL')
    expect(w.text('a.txt')).toBe('a before\n')
    // While the app is down the user edits the file the restore already wrote, and one it had not.
    w.write('a.txt', 'the user edited a after the kill\n')
    w.write('c.txt', 'the user edited c after the kill\n')
    w.write('n.txt', 'the user made n again after the kill\n')
    w.store = await openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }] })
    expect(w.text('a.txt')).toBe('the user edited a after the kill\n')
    expect(w.text('b.txt')).toBe('b before\n')
    expect(w.text('c.txt')).toBe('the user edited c after the kill\n')
    expect(fs.statSync(w.p('a0.sh')).mode & 0o777).toBe(0o644)
    const [rec] = w.store.recoveredRestores
    expect(rec!.skipped.map((k) => k.path).sort()).toEqual(['a.txt', 'c.txt', 'n.txt'])
    // Undo puts back what the restore changed and only that: both edits are conflicts, kept.
    const undo = await w.store.undo(rec!.restoreId, { onConflict: 'restore-rest' })
    expect(undo.skipped.map((k) => k.path).sort()).toEqual(['a.txt', 'n.txt'])
    expect(w.text('a.txt')).toBe('the user edited a after the kill\n')
    expect(w.text('b.txt')).toBe('b after the turn\n')
    expect(w.text('c.txt')).toBe('the user edited c after the kill\n')
    expect(w.text('n.txt')).toBe('the user made n again after the kill\n')
  })

  it('Crash: the done marks of plain deletes are written in batches; a kill loses some, recovery redoes those deletes and reports nothing', async () => {
    const w = await workspace()
    w.write('keep/a.txt', 'a0')
    await w.store.capture('s/m1')
    for (let i = 0; i < 600; i++) w.write(`installed/p${i % 7}/f${i}.js`, `f${i}`)
    w.write('keep/a.txt', 'a1') // a write step after the deletes: its mark comes after theirs
    await w.store.seal('s/m1')
    await w.store.close()
    const res = await runChild(CHILD, [w.storeDir, w.ws, 'step', '400'])
    expect(res.signal).toBe('SIGKILL')
    const jdir = path.join(w.storeDir, 'journal')
    const lines = fs
      .readFileSync(path.join(jdir, fs.readdirSync(jdir)[0]!), 'utf8')
      .trim()
      .split('\n')
    const marked = lines.filter((l) => l.includes('"done"')).length
    // Up to 400 deletes were made, none after the kill's step; the marks of those after the last
    // full batch were still waiting.
    const left = fs.readdirSync(w.p('installed'), { recursive: true }).filter((n) => String(n).endsWith('.js')).length
    expect(left).toBeGreaterThanOrEqual(200)
    expect(left).toBeLessThan(600)
    expect(marked).toBeLessThan(400)
    expect(marked).toBeLessThanOrEqual(600 - left)
    const store = await openCheckpointStore({ storeDir: w.storeDir, roots: [{ path: w.ws }] })
    w.store = store
    expect(store.recovered).toHaveLength(1)
    expect(store.recoveredRestores[0]).toMatchObject({ skipped: [], failed: [] })
    expect(store.listTurns('s')[0]!.status).toBe('restored')
    expect(w.exists('installed')).toBe(false)
    expect(w.text('keep/a.txt')).toBe('a0')
  })

  it('Crash: killed at random times during a restore (seeded), every file is pre or post and the journal completes', async () => {
    // Deterministic seeds → kill delays spread over the restore's run time, counted from the
    // moment the child starts applying (start-up time varies too much to count from spawn).
    const seeds = [11, 23, 37, 41, 59, 71, 83, 97]
    const outcomes: string[] = []
    for (const seed of seeds) {
      const delay = (seed * 7919) % 120
      outcomes.push(`${delay}ms:${await crashAndCheck('timer', delay, seed % 2 === 0)}`)
    }
    console.log('random kill outcomes', outcomes.join(' '))
    expect(
      outcomes.some((o) => !o.endsWith('finished')),
      'at least one kill landed before the restore finished',
    ).toBe(true)
  })
})
