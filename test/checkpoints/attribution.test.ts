// Attribution: what a turn's tools wrote tells its own changes from another session's turn and
// from the user's editor. Without tool use (no lookup) the plans stay as the overlap rule makes them
// (data-loss.test.ts, class 9); these tests pass what opencode's stored tool calls would say.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TurnToolUse } from '../../core/checkpoints/plan/attribution'
import { openCheckpointStore, projectRegistryDir } from '../../core/checkpoints/index'
import { workspace, type Ws } from './helpers'

type Uses = Record<string, { wrote?: string[]; opaque?: boolean }>

/** A plan of `turnKey` with the given tool use per turn ('sesA/m1' → what its tools wrote). */
function planWith(w: Ws, turnKey: string, uses: Uses) {
  const asked: string[] = []
  return {
    asked,
    plan: w.store.plan(
      { turnKey },
      {
        toolUse: async (turns) => {
          asked.push(...turns.map((t) => `${t.sessionID}/${t.messageID}`))
          return (t) => {
            const u = uses[`${t.sessionID}/${t.messageID}`]
            return u && ({ paths: new Set((u.wrote ?? []).map((p) => w.p(p))), opaque: u.opaque ?? false } satisfies TurnToolUse)
          }
        },
      },
    ),
  }
}

const kinds = (actions: { path: string; kind: string }[]) => Object.fromEntries(actions.map((a) => [a.path, a.kind]))

/** A and B overlap: A writes a.txt, B writes b.txt and edits shared.txt, all while both run. */
async function overlapping(): Promise<Ws> {
  const w = await workspace()
  w.write('shared.txt', 's0')
  await w.store.capture('sesA/m1')
  await w.store.capture('sesB/m2')
  w.write('a.txt', 'by A')
  w.write('b.txt', 'by B')
  w.write('shared.txt', 's-by-B')
  await w.store.seal('sesB/m2')
  await w.store.seal('sesA/m1')
  return w
}

describe('attribution by what the tools wrote', () => {
  it('in an overlap, A’s named file is rolled back and B’s named files are B’s: left as they are, never offered', async () => {
    const w = await overlapping()
    const { plan, asked } = planWith(w, 'sesA/m1', { 'sesA/m1': { wrote: ['a.txt'] }, 'sesB/m2': { wrote: ['b.txt', 'shared.txt'] } })
    const p = await plan
    expect(asked.sort()).toEqual(['sesA/m1', 'sesB/m2'])
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'delete', 'b.txt': 'not-this-turn', 'shared.txt': 'not-this-turn' })
    expect(p.actions.find((a) => a.path === 'b.txt')!.reason).toMatch(/session sesB's turn, not this one/)
    // Even "overwrite everything" cannot touch B's work: it is not an action of this plan.
    const res = await w.store.apply(p, { onConflict: 'restore-rest', overwrite: p.actions.map((a) => a.id) })
    expect(res.failed).toEqual([])
    expect(w.exists('a.txt')).toBe(false)
    expect(w.text('b.txt')).toBe('by B')
    expect(w.text('shared.txt')).toBe('s-by-B')
  })

  it('a shell in B (it could have written anything) leaves A’s file uncertain: a conflict, kept by default', async () => {
    const w = await overlapping()
    const p = await planWith(w, 'sesA/m1', { 'sesA/m1': { wrote: ['a.txt'] }, 'sesB/m2': { wrote: ['b.txt'], opaque: true } }).plan
    // a.txt: B's shell might have written it; b.txt: B's; shared.txt: nobody named it, B could have.
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'conflict', 'b.txt': 'not-this-turn', 'shared.txt': 'conflict' })
  })

  it('unknown tool use (a server that could not be asked) keeps the overlap rule of before', async () => {
    const w = await overlapping()
    const p = await planWith(w, 'sesA/m1', {}).plan
    expect(kinds(p.actions)).toEqual({ 'a.txt': 'conflict', 'b.txt': 'conflict', 'shared.txt': 'conflict' })
  })

  it('with no other turn running, a file none of A’s tools wrote was changed outside the agent: kept unless chosen', async () => {
    const w = await workspace()
    w.write('notes.md', 'mine v1')
    await w.store.capture('sesA/m1')
    w.write('src/new/a.ts', 'by A') // A's write tool (it made the folder too)
    w.write('notes.md', 'mine v2, typed in my editor during the turn')
    await w.store.seal('sesA/m1')
    const p = await planWith(w, 'sesA/m1', { 'sesA/m1': { wrote: ['src/new/a.ts'] } }).plan
    expect(kinds(p.actions)).toEqual({ src: 'delete', 'src/new': 'delete', 'src/new/a.ts': 'delete', 'notes.md': 'conflict' })
    expect(p.actions.find((a) => a.path === 'notes.md')!.reason).toMatch(/changed outside the agent/)
    await w.store.apply(p, { onConflict: 'restore-rest' })
    expect(w.exists('src')).toBe(false)
    expect(w.text('notes.md')).toBe('mine v2, typed in my editor during the turn')
    // Chosen explicitly, it is rolled back like the rest.
  })

  it('a turn that ran a shell owns every change in its window, as before', async () => {
    const w = await workspace()
    w.write('notes.md', 'v1')
    await w.store.capture('sesA/m1')
    w.write('notes.md', 'v2')
    w.write('out.txt', 'made by a shell command')
    await w.store.seal('sesA/m1')
    const p = await planWith(w, 'sesA/m1', { 'sesA/m1': { opaque: true } }).plan
    expect(kinds(p.actions)).toEqual({ 'notes.md': 'restore', 'out.txt': 'delete' })
  })

  it('a session writing through a linked folder named the file: another session’s retake does not revert it', async () => {
    const w = await workspace()
    w.write('src/shared.txt', 's0')
    fs.symlinkSync('src', w.p('lnk'))
    await w.store.capture('sesA/m1')
    await w.store.capture('sesB/m2')
    w.write('src/shared.txt', 's-by-B') // B's edit tool named src/shared.txt
    w.write('src/shared.txt', 's-by-B-then-A') // A's edit tool named lnk/shared.txt
    await w.store.seal('sesB/m2')
    await w.store.seal('sesA/m1')
    const p = await planWith(w, 'sesB/m2', { 'sesA/m1': { wrote: ['lnk/shared.txt'] }, 'sesB/m2': { wrote: ['src/shared.txt'] } }).plan
    // Both named it: nobody can tell whose the content is, so it is kept unless chosen.
    expect(kinds(p.actions)).toEqual({ 'src/shared.txt': 'conflict' })
    await w.store.apply(p, { onConflict: 'restore-rest' })
    expect(w.text('src/shared.txt')).toBe('s-by-B-then-A')
  })

  it('a file a retake of session B brought back during A’s turn is not A’s: retaking A never deletes it again', async () => {
    const w = await workspace()
    w.write('f.txt', 'keep me')
    await w.store.capture('sesB/m1')
    fs.rmSync(w.p('f.txt')) // B's turn deleted it
    await w.store.seal('sesB/m1')
    await w.store.capture('sesA/m2')
    w.write('a.txt', 'by A')
    // While A runs, the user retakes B: f.txt comes back.
    expect((await w.store.apply(await w.store.plan({ turnKey: 'sesB/m1' }))).status).toBe('done')
    expect(w.text('f.txt')).toBe('keep me')
    await w.store.seal('sesA/m2')
    // A's tools known: the restore wrote it, A's did not — left as it is, not an action.
    const known = await planWith(w, 'sesA/m2', { 'sesA/m2': { wrote: ['a.txt'] } }).plan
    expect(kinds(known.actions)).toEqual({ 'a.txt': 'delete', 'f.txt': 'not-this-turn' })
    expect(known.actions.find((a) => a.path === 'f.txt')!.reason).toMatch(/put back by a restore/)
    // A ran a shell (it could have written anything): uncertain, kept unless the user chooses.
    const opaque = await planWith(w, 'sesA/m2', { 'sesA/m2': { opaque: true } }).plan
    expect(kinds(opaque.actions)).toEqual({ 'a.txt': 'delete', 'f.txt': 'conflict' })
    await w.store.apply(opaque, { onConflict: 'restore-rest' })
    expect(w.exists('a.txt')).toBe(false)
    expect(w.text('f.txt')).toBe('keep me')
  })

  it('two app instances with their own data dirs on one project: a retake in one never silently rolls back the other’s turn', async () => {
    const w = await workspace()
    await w.store.close()
    const projectRegistry = path.join(w.dir, 'registry') // the user's runtime folder in the app
    const open = (data: string) => openCheckpointStore({ storeDir: path.join(w.dir, data, 'checkpoints'), roots: [{ path: w.ws }], projectRegistry })
    const first = await open('data-1')
    w.store = await open('data-2')
    try {
      w.write('notes.md', 'v1')
      await first.capture('sesX/m1') // the first instance's turn
      await w.store.capture('sesY/m1') // and this one's, at the same time
      w.write('by-first.txt', 'the first instance’s agent wrote this')
      w.write('by-second.txt', 'this instance’s agent wrote this')
      await first.seal('sesX/m1')
      await w.store.seal('sesY/m1')
      const p = await w.store.plan({ turnKey: 'sesY/m1' })
      // Neither store can tell the two agents apart: both files are kept unless the user chooses.
      expect(kinds(p.actions)).toEqual({ 'by-first.txt': 'conflict', 'by-second.txt': 'conflict' })
      expect(p.actions[0]!.reason).toMatch(/session sesX/)
      await w.store.apply(p, { onConflict: 'restore-rest' })
      expect(w.text('by-first.txt')).toBe('the first instance’s agent wrote this')
    } finally {
      await first.close()
    }
  })

  it('the registry of stores is the user’s own: a folder another user made in its place is not used', async () => {
    const w = await workspace()
    const saved = process.env.XDG_RUNTIME_DIR
    process.env.XDG_RUNTIME_DIR = w.dir
    try {
      expect(projectRegistryDir()).toBe(path.join(w.dir, 'retake', 'projects'))
      expect(fs.statSync(path.join(w.dir, 'retake')).mode & 0o777).toBe(0o700)
      if (process.getuid?.() !== 0) return // only root can hand the folder to another user here
      fs.chownSync(path.join(w.dir, 'retake'), 65534, 65534)
      expect(projectRegistryDir()).toBeNull()
    } finally {
      if (saved === undefined) delete process.env.XDG_RUNTIME_DIR
      else process.env.XDG_RUNTIME_DIR = saved
    }
  })
})
