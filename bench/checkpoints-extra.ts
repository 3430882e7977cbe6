// Parts of bench:checkpoints beyond the generated workspace (issue "Nothing lost, ever", Proof):
//  - a real dependency tree: a copy of this project's own node_modules inside a small project;
//  - the restore of an "npm install" turn (thousands of created files) against `rm -rf`;
//  - the plan of a turn that changed a 1 MB text file (its preview diff): time and extra memory.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { openCheckpointStore } from '../electron/checkpoints/index'
import type { OpenOptions } from '../electron/checkpoints/index'

export type Row = [string, string, string, string]

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6
export const sec = (m: number) => (m >= 1000 ? (m / 1000).toFixed(2) + ' s' : m.toFixed(1) + ' ms')
const ratio = (a: number, b: number) => (a / b).toFixed(3) + '×'
const met = (ok: boolean) => (ok ? 'met' : 'NOT met')
const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 26 })
const countFiles = (dir: string) => Number(execFileSync('sh', ['-c', `find "${dir}" -type f | wc -l`]).toString().trim())

/** The plan of a turn that made a few edits to a 1 MB text file: wall time and peak memory added. */
export async function diffPlanRows(tmp: string): Promise<Row[]> {
  const ws = path.join(tmp, 'diff-ws')
  fs.mkdirSync(ws, { recursive: true })
  const lines: string[] = []
  for (let i = 0; lines.join('\n').length < 1_000_000 - 80; i++) lines.push(`line ${i}: the quick brown fox jumps over the lazy dog ${i * 7919}`)
  const file = path.join(ws, 'big.txt')
  fs.writeFileSync(file, lines.join('\n'))
  const store = await openCheckpointStore({ storeDir: path.join(tmp, 'diff-store'), roots: [{ path: ws }] })
  await store.capture('bench/d1')
  for (const at of [100, 5000, 12000]) lines[at] = `edited by the turn at ${at}`
  fs.writeFileSync(file, lines.join('\n'))
  await store.seal('bench/d1')
  const rss0 = process.resourceUsage().maxRSS
  const t = process.hrtime.bigint()
  const plan = await store.plan({ turnKey: 'bench/d1' })
  const took = ms(t)
  const extraMb = (process.resourceUsage().maxRSS - rss0) / 1024
  await store.close()
  const a = plan.actions[0]
  const shown = a?.diff ? `diff of ${a.diff.split('\n').length} lines` : a?.binary ? 'binary' : 'summary only'
  return [
    ['plan of a turn that edited a 1 MB text file', sec(took), shown, `${met(took <= 200)} (≤200 ms)`],
    ['  peak memory added by that plan', `${extraMb.toFixed(1)} MB`, 'maxRSS before → after', `${met(extraMb <= 50)} (≤50 MB)`],
  ]
}

/**
 * A turn that creates `files` (an install): capture, the turn, seal, then the restore that deletes
 * them all — against `rm -rf` of an identical copy.
 */
export async function installRows(label: string, ws: string, tmp: string, turn: () => string, undoAfter = false): Promise<Row[]> {
  const store = await openCheckpointStore({ storeDir: path.join(tmp, `install-store-${label}`), roots: [{ path: ws }], maxFileBytes: 1 << 30 })
  await store.capture('bench/i1')
  const made = turn()
  const n = countFiles(made)
  await store.seal('bench/i1')
  const copy = path.join(tmp, `rm-copy-${label}`)
  sh('cp', ['-a', made, copy])
  let t = process.hrtime.bigint()
  sh('rm', ['-rf', copy])
  const rmMs = ms(t)
  t = process.hrtime.bigint()
  const res = await store.apply(await store.plan({ turnKey: 'bench/i1' }))
  const rtMs = ms(t)
  if (res.status !== 'done' || fs.existsSync(made)) throw new Error(`install restore did not remove ${made}: ${res.status}`)
  const rows: Row[] = [[`restore of an install turn (${n} files created)`, sec(rtMs), `rm -rf ${sec(rmMs)}`, `${ratio(rtMs, rmMs)} rm -rf · ${met(rtMs <= 2 * rmMs)} (≤2)`]]
  if (undoAfter) {
    // The tree is needed again: its undo writes every file back from the store.
    t = process.hrtime.bigint()
    const u = await store.undo(res.restoreId!)
    if (u.status !== 'done') throw new Error(`undo of the install restore: ${u.status}`)
    rows.push(['  its undo (every file written back)', sec(ms(t)), '', ''])
  }
  await store.close()
  return rows
}

/** A small project with a copy of this repository's own node_modules in it (kept across runs). */
export function realTree(work: string, small: boolean, source: string): string {
  const ws = path.join(work, small ? 'real-small' : 'real')
  const marker = path.join(ws, '.bench-complete')
  if (fs.existsSync(marker)) return ws
  fs.rmSync(ws, { recursive: true, force: true })
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true })
  fs.writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ name: 'bench-real', private: true }, null, 2))
  for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(ws, 'src', `mod${i}.ts`), `export const m${i} = ${i}\n`.repeat(40))
  const nm = path.join(ws, 'node_modules')
  if (small) {
    fs.mkdirSync(nm)
    for (const pkg of ['zod', 'diff', 'ignore', 'zustand', '@tanstack']) if (fs.existsSync(path.join(source, pkg))) sh('cp', ['-a', path.join(source, pkg), path.join(nm, pkg)])
  } else {
    console.log(`copying ${source} into ${nm} …`)
    sh('cp', ['-a', fs.realpathSync(source), nm])
  }
  fs.writeFileSync(marker, '')
  return ws
}

/** First capture and capture after one changed file on a tree, against shadow git. */
export async function captureRows(ws: string, tmp: string, oneFile: string): Promise<Row[]> {
  const original = fs.readFileSync(oneFile)
  const edit = (tag: string) => fs.writeFileSync(oneFile, Buffer.concat([original, Buffer.from(`// edit ${tag}\n`)]))
  const gitDir = path.join(tmp, 'real-shadow.git')
  const git = (...args: string[]) => sh('git', [`--git-dir=${gitDir}`, `--work-tree=${ws}`, ...args])
  sh('git', ['init', '-q', '--bare', gitDir])
  git('config', 'core.autocrlf', 'false')
  let t = process.hrtime.bigint()
  git('add', '-A')
  git('write-tree')
  const gitFirst = ms(t)
  const gitSeconds: number[] = []
  for (let i = 0; i < 5; i++) {
    edit(`git-${i}`)
    t = process.hrtime.bigint()
    git('add', '-A')
    git('write-tree')
    gitSeconds.push(ms(t))
  }
  const gitSecond = median(gitSeconds)
  const storeDir = path.join(tmp, 'real-store')
  const seal = async (extra: Partial<OpenOptions>, tag: string): Promise<{ first: number; second: number; restore: number }> => {
    const store = await openCheckpointStore({ storeDir, roots: [{ path: ws }], maxFileBytes: 1 << 30, ...extra })
    t = process.hrtime.bigint()
    await store.capture(`bench/${tag}0`)
    const first = ms(t)
    const xs: number[] = []
    for (let i = 1; i <= 5; i++) {
      await store.capture(`bench/${tag}${i}`)
      edit(`${tag}-${i}`)
      t = process.hrtime.bigint()
      await store.seal(`bench/${tag}${i}`)
      xs.push(ms(t))
    }
    const restores: number[] = []
    for (let i = 0; i < 5; i++) {
      t = process.hrtime.bigint()
      const r = await store.apply(await store.plan({ turnKey: `bench/${tag}5` }))
      restores.push(ms(t))
      if (r.restoreId) await store.undo(r.restoreId)
    }
    await store.close()
    fs.writeFileSync(oneFile, original)
    return { first, second: median(xs), restore: median(restores) }
  }
  const full = await seal({}, 'r')
  const watched = await seal({ watch: true }, 'w')
  return [
    ['first capture', sec(full.first), `git ${sec(gitFirst)}`, `${ratio(full.first, gitFirst)} git · ${met(full.first <= 0.2 * gitFirst)} (≤0.2)`],
    ['capture after one changed file (median of 5)', sec(full.second), `git ${sec(gitSecond)}`, `${ratio(full.second, gitSecond)} git · ${met(full.second <= 0.25 * gitSecond)} (≤0.25)`],
    ['  same, watcher (experimental, off)', sec(watched.second), `git ${sec(gitSecond)}`, `${ratio(watched.second, gitSecond)} git · ${met(watched.second <= 0.25 * gitSecond)} (≤0.25)`],
    ['restore one-file turn (median of 5)', sec(full.restore), '', `${met(full.restore <= 20)} (≤20 ms)`],
  ]
}

export function printTable(title: string, rows: Row[]): void {
  console.log(`\n${title}\n`)
  const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), ['figure', 'Retake', 'baseline', 'ratio'][i]!.length))
  const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(w[i]!)).join(' | ') + ' |'
  console.log(line(['figure', 'Retake', 'baseline', 'ratio']))
  console.log('|' + w.map((n) => '-'.repeat(n + 2)).join('|') + '|')
  for (const r of rows) console.log(line(r))
}
