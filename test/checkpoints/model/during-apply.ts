// Another process writing while a restore runs (flag writeDuringApply): right before the first step
// at one path the plan acts on, a file is written there — an editor's autosave of a file the
// restore is about to replace or delete, a file saved where the plan recreates one, a file dropped
// into a folder the plan removes. The path is drawn from the seed on a stream of its own, so the
// scenario's other draws (and every recorded seed) replay as before. The write is made in the
// step's hook, between two steps, as any other process's would land; the oracle (judge's
// `userDuringApply`) asks that it survives the restore and its undo untouched.
import fs from 'node:fs'
import type { Step } from '../../../core/checkpoints/store/journal'
import { toBytes } from '../../../core/checkpoints/store/os-names'
import type { Plan } from '../../../core/checkpoints/types'
import { rng } from './gen'
import { readTags } from './tags'
import { absBytes } from './tree'
import type { Node, Tree } from './tree'

export interface DuringApply {
  onStep: (i: number, s: Step) => void
  /** Model path → what was written there (empty until its step came, or when nothing could be). */
  writes: Map<string, Node>
  log: string[]
}

const MAYBE = { throwIfNoEntry: false } as const

export function writerFor(seed: number, plan: Plan, ws: string): DuringApply | null {
  const r = rng((seed * 2246822519 + 0xa77e) >>> 0)
  const acted = plan.actions.filter((a) => a.kind === 'restore' || a.kind === 'recreate' || a.kind === 'delete')
  if (!acted.length) return null
  const target = r.pick(acted).path
  const data = Buffer.from(`written by another process during the apply (seed ${seed})\n`)
  const out: DuringApply = { writes: new Map(), log: [], onStep: () => {} }
  let done = false
  out.onStep = (_i, s) => {
    if (done || s.key !== target) return
    done = true
    let rel = toBytes(s.key).toString('latin1')
    if (lstatOrNull(absBytes(ws, rel))?.isDirectory()) rel = `${rel}/written-during-apply.txt`
    const abs = absBytes(ws, rel)
    const parent = absBytes(ws, rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '')
    // Only into a real folder of the root, and never over a link: nothing is written outside it.
    // (A step before this one may have left a file where a folder on the way was: nothing to write into.)
    const real = lstatOrNull(parent)?.isDirectory() ? fs.realpathSync.native(parent, { encoding: 'buffer' }) : null
    if (!real?.equals(parent) || lstatOrNull(abs)?.isSymbolicLink()) {
      out.log.push(`during apply: nothing written at ${rel} (no real folder there)`)
      return
    }
    fs.writeFileSync(abs, data)
    // Written in place: every other name of the file (a hard link, model/names-links.ts) shows it too.
    const names = otherNames(ws, rel)
    for (const p of [rel, ...names]) out.writes.set(p, { t: 'f', data, mode: fs.lstatSync(abs).mode & 0o7777, ...tagsOf(ws, p) })
    out.log.push(`during apply: another process wrote ${rel}${names.length ? ` (also seen as ${names.join(', ')})` : ''}`)
  }
  return out
}

/** lstat, or null when nothing is there or a file stands where a folder on the way should be. */
function lstatOrNull(p: Buffer): fs.Stats | null {
  try {
    return fs.lstatSync(p, MAYBE) ?? null
  } catch {
    return null
  }
}

/** The other paths of the root naming the same file as `rel` (none unless it has more than one link). */
function otherNames(ws: string, rel: string): string[] {
  const st = fs.lstatSync(absBytes(ws, rel))
  if (st.nlink < 2) return []
  const out: string[] = []
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(absBytes(ws, dir), { withFileTypes: true, encoding: 'buffer' })) {
      const p = dir ? `${dir}/${e.name.toString('latin1')}` : e.name.toString('latin1')
      if (e.isDirectory()) walk(p)
      else if (e.isFile() && p !== rel) {
        const o = fs.lstatSync(absBytes(ws, p))
        if (o.ino === st.ino && o.dev === st.dev) out.push(p)
      }
    }
  }
  walk('')
  return out
}

const tagsOf = (ws: string, rel: string): { tags?: string } => {
  const tags = readTags(ws, rel)
  return tags === undefined ? {} : { tags }
}

/** A tree with what was written during the apply in place: what the restore's undo must come back to. */
export function withWrites(tree: Tree, writes: Map<string, Node>): Tree {
  const t = new Map(tree)
  for (const [p, n] of writes) t.set(p, n)
  return t
}
