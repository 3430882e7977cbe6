// Checkpoint benchmark: Retake's engine against shadow git (opencode / Cline / Roo:
// `git --git-dir=<tmp> --work-tree=<ws> add -A && git write-tree`) and a plain full copy (`cp -a`),
// on a generated workspace like the reference one (~21,000 files, ~600 MB: many small source
// files plus ten 50 MB binaries, and a .gitignore as real projects have). Prints every figure and
// every ratio side by side.
//
//   npm run bench:checkpoints              full size, under bench/.work/
//   npm run bench:checkpoints -- --small   ~2,100 files / ~60 MB, for a quick run
//   RETAKE_BENCH_DIR=/path npm run bench:checkpoints   work somewhere else
//   npm run bench:checkpoints -- --no-real  skip the real dependency tree (a copy of node_modules)
//   RETAKE_BENCH_HOST_FILES=20000 npm run bench:checkpoints   a smaller tree for the host's
//     responsiveness during a first capture (default 200,000 files, 20,000 with --small)
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { openCheckpointStore } from '../core/checkpoints/index'
import type { CaptureResult, OpenOptions } from '../core/checkpoints/index'
import { dirSize } from '../core/checkpoints/store/fsutil'
import { hostResponsiveness, printBudgets } from './host-responsiveness'
import { generateWorkspace } from './workspaces'
import { captureBudgets, measureCaptures, printCaptureTable } from './capture-budgets'
import { captureRows, diffPlanRows, installRows, printTable, realTree, sideBySide } from './checkpoints-extra'
import type { Figures } from './checkpoints-extra'

const small = process.argv.includes('--small')
const here = path.dirname(fileURLToPath(import.meta.url))
const work = path.resolve(process.env.RETAKE_BENCH_DIR ?? path.join(here, '.work'))
const scale = small ? 0.1 : 1
const SMALL_FILES = Math.round(20_990 * scale)
const BINARIES = 10
const BINARY_BYTES = Math.round(50 * 1024 * 1024 * scale)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6
const mb = (n: number) => (n / 1024 / 1024).toFixed(1) + ' MB'
const kb = (n: number) => (n / 1024).toFixed(1) + ' KB'
const sec = (m: number) => (m >= 1000 ? (m / 1000).toFixed(2) + ' s' : m.toFixed(1) + ' ms')

function sh(cmd: string, args: string[], cwd?: string): void {
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 26 })
}

async function main(): Promise<void> {
  fs.mkdirSync(work, { recursive: true })
  const ws = path.join(work, small ? 'ws-small' : 'ws')
  generateWorkspace(ws, SMALL_FILES, BINARIES, BINARY_BYTES)
  const files = Number(
    execFileSync('sh', ['-c', `find "${ws}" -type f | wc -l`])
      .toString()
      .trim(),
  )
  const bytes = dirSize(ws)
  const oneFile = path.join(ws, 'src', 'pkg7', 'mod3', 'file127.ts')
  const original = fs.readFileSync(oneFile)
  const edit = (tag: string) => fs.writeFileSync(oneFile, Buffer.concat([original, Buffer.from(`// edit ${tag}\n`)]))
  const tmp = fs.mkdtempSync(path.join(work, 'run-'))
  const rows: [string, string, string, string][] = []
  try {
    // First, while the process is fresh: its peak memory is what the 1 MB diff plan adds.
    const diffRows = await diffPlanRows(tmp)
    // 1. Plain full copy.
    let t = process.hrtime.bigint()
    sh('cp', ['-a', ws, path.join(tmp, 'copy')])
    const cpMs = ms(t)
    const cpBytes = dirSize(path.join(tmp, 'copy'))
    fs.rmSync(path.join(tmp, 'copy'), { recursive: true, force: true })

    // 2. Shadow git, as opencode/Cline/Roo do it.
    const gitDir = path.join(tmp, 'shadow.git')
    const git = (...args: string[]) => sh('git', [`--git-dir=${gitDir}`, `--work-tree=${ws}`, ...args])
    sh('git', ['init', '-q', '--bare', gitDir])
    git('config', 'core.autocrlf', 'false')
    t = process.hrtime.bigint()
    git('add', '-A')
    git('write-tree')
    const gitFirst = ms(t)
    const gitTree0 = execFileSync('git', [`--git-dir=${gitDir}`, `--work-tree=${ws}`, 'write-tree'])
      .toString()
      .trim()
    const gitSize0 = dirSize(gitDir)
    // Capture after one changed file: median of 5, like Retake's figure below.
    const gitSeconds: number[] = []
    let gitGrowth = 0
    for (let i = 0; i < 5; i++) {
      const sizeBefore = dirSize(gitDir)
      edit(`git-${i}`)
      t = process.hrtime.bigint()
      git('add', '-A')
      git('write-tree')
      gitSeconds.push(ms(t))
      if (i === 0) gitGrowth = dirSize(gitDir) - sizeBefore
    }
    const gitSecond = median(gitSeconds)
    t = process.hrtime.bigint()
    git('checkout', gitTree0, '--', path.relative(ws, oneFile))
    const gitRestore = ms(t)
    fs.writeFileSync(oneFile, original)

    // 3. Retake.
    const storeDir = path.join(tmp, 'retake-store')
    const store = await openCheckpointStore({ storeDir, roots: [{ path: ws }], maxFileBytes: 1 << 30 })
    t = process.hrtime.bigint()
    await store.capture('bench/m1')
    const rtFirst = ms(t)
    const storeAfterFirst = dirSize(storeDir)
    // A turn that changes one file: the seal is the "capture after one changed file". The figure
    // is the median of 5 such turns (the machine is shared; single runs of ~0.2 s are noisy).
    const seconds: number[] = []
    for (let i = 0; i < 5; i++) {
      if (i > 0) await store.capture(`bench/w${i}`)
      edit(`retake-1-${i}`)
      t = process.hrtime.bigint()
      const r = await store.seal(i === 0 ? 'bench/m1' : `bench/w${i}`)
      seconds.push(ms(t))
      if (r.mode !== 'watched') console.log(`note: seal ${i} ran as ${r.mode} (the change journal is on by default)`)
    }
    const rtSecond = median(seconds)
    // Store growth per turn: a complete turn (capture + one changed file + seal).
    const before = dirSize(storeDir)
    await store.capture('bench/m2')
    edit('retake-2')
    await store.seal('bench/m2')
    const growth = dirSize(storeDir) - before
    const changedBytes = fs.statSync(oneFile).size
    // Restore of a one-file turn (plan + apply, journal and pre/post captures included); median of
    // 5: restore, undo, restore again …
    let written = 0
    let targetBytes = 0
    const restores: number[] = []
    let lastRestore = ''
    for (let i = 0; i < 5; i++) {
      t = process.hrtime.bigint()
      if (i % 2 === 0) {
        const plan = await store.plan({ turnKey: 'bench/m2' })
        targetBytes = plan.actions.find((a) => a.kind === 'restore')?.target?.size ?? -1
        const res = await store.apply(plan, {}, { onBytesWritten: (n) => (written = n) })
        if (res.status !== 'done' || res.applied.length !== 1) throw new Error(`unexpected restore result ${JSON.stringify(res)}`)
        lastRestore = res.restoreId!
      } else {
        const res = await store.undo(lastRestore)
        if (res.status !== 'done') throw new Error(`unexpected undo result ${JSON.stringify(res)}`)
      }
      restores.push(ms(t))
    }
    const rtRestore = median(restores)
    // A second identical turn-less capture (nothing changed) for reference.
    t = process.hrtime.bigint()
    await store.capture('bench/m3')
    const rtIdle = ms(t)
    await store.close()
    fs.writeFileSync(oneFile, original)

    /** Median seal time of 5 turns that each change one file, the store opened with `extra`. */
    const medianSeal = async (tag: string, extra: Partial<OpenOptions>, check?: (r: CaptureResult, i: number) => void): Promise<number> => {
      const s = await openCheckpointStore({ storeDir, roots: [{ path: ws }], maxFileBytes: 1 << 30, ...extra })
      await s.capture(`bench/${tag}0`)
      const xs: number[] = []
      for (let i = 1; i <= 5; i++) {
        await s.capture(`bench/${tag}${i}`)
        edit(`${tag}-${i}`)
        const t0 = process.hrtime.bigint()
        const r = await s.seal(`bench/${tag}${i}`)
        xs.push(ms(t0))
        check?.(r, i)
      }
      await s.close()
      fs.writeFileSync(oneFile, original)
      return median(xs)
    }
    // The same turns with the change journal off, every capture a full walk (what a root on a
    // network file system gets).
    const rtWalked = await medianSeal('x', { watch: false }, (r, i) => {
      if (r.mode !== 'full') console.log(`note: walked seal ${i} ran as ${r.mode}`)
    })

    const ratio = (a: number, b: number) => (a / b).toFixed(3) + '×'
    rows.push(['first capture', sec(rtFirst), `git ${sec(gitFirst)} · cp ${sec(cpMs)}`, `${ratio(rtFirst, gitFirst)} git · ${ratio(rtFirst, cpMs)} cp`])
    rows.push(['capture after one changed file (median of 5, change journal)', sec(rtSecond), `git ${sec(gitSecond)} (median of 5)`, `${ratio(rtSecond, gitSecond)} git`])
    rows.push(['  same, full walk (watch: false)', sec(rtWalked), `git ${sec(gitSecond)}`, `${ratio(rtWalked, gitSecond)} git`])
    rows.push(['capture, nothing changed', sec(rtIdle), '', ''])
    rows.push(['restore one-file turn (median of 5)', sec(rtRestore), `git checkout ${sec(gitRestore)}`, `${ratio(rtRestore, gitRestore)} git · target ≤100 ms`])
    rows.push(['bytes written by that restore', String(written) + ' B', `restored file is ${targetBytes} B`, written === targetBytes ? 'exactly one file' : 'NOT one file'])
    rows.push([
      'store growth per turn',
      kb(growth),
      `git ${kb(gitGrowth)} · cp ${mb(cpBytes)}`,
      `changed ${kb(changedBytes)} + 256 KB → ${growth <= changedBytes + 256 * 1024 ? 'within' : 'OVER'}`,
    ])
    rows.push(['store size after first capture', mb(storeAfterFirst), `git ${mb(gitSize0)} · cp ${mb(cpBytes)}`, ''])

    console.log(`\nworkspace: ${files} files, ${mb(bytes)} (${small ? '--small' : 'full'}) · ${os.cpus().length} cores · node ${process.version} · ${new Date().toISOString()}`)
    console.log('page cache warm for every method (the workspace was just generated or read)\n')
    const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), ['figure', 'Retake', 'shadow git / cp -a', 'ratio'][i]!.length))
    const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(w[i]!)).join(' | ') + ' |'
    console.log(line(['figure', 'Retake', 'shadow git / cp -a', 'ratio']))
    console.log('|' + w.map((n) => '-'.repeat(n + 2)).join('|') + '|')
    for (const r of rows) console.log(line(r))

    // An install into the generated workspace: eight source packages copied in (thousands of files).
    const vendor = path.join(ws, 'vendor')
    fs.rmSync(vendor, { recursive: true, force: true })
    const genInstall = await installRows('generated', ws, tmp, () => {
      fs.mkdirSync(vendor)
      for (let p = 0; p < 6; p++) sh('cp', ['-a', path.join(ws, 'src', `pkg${p}`), path.join(vendor, `pkg${p}`)])
      return vendor
    })
    const cols: [string, Figures][] = [['generated', { first: rtFirst, gitFirst, second: rtSecond, gitSecond, walked: rtWalked, restore: rtRestore, install: genInstall }]]
    let realTitle = ''
    if (!process.argv.includes('--no-real')) {
      const real = realTree(work, small, path.join(here, '..', 'node_modules'))
      const realFiles = Number(
        execFileSync('sh', ['-c', `find "${real}" -type f | wc -l`])
          .toString()
          .trim(),
      )
      realTitle = ` · real: this project's node_modules in a small project, ${realFiles} files, ${mb(dirSize(real))}`
      const figs = await captureRows(real, tmp, path.join(real, 'src', 'mod3.ts'))
      // The install turn: a workspace package gets its own node_modules, three packages of the
      // real tree (highlight.js, lodash, zod: ~3,400 files) copied in as npm would write them.
      const app = path.join(real, 'packages', 'app')
      fs.rmSync(path.join(real, 'packages'), { recursive: true, force: true })
      const pkgs = small ? ['zod'] : ['highlight.js', 'lodash', 'zod']
      const inst = await installRows('real', real, tmp, () => {
        fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true })
        for (const p of pkgs) sh('cp', ['-a', path.join(real, 'node_modules', p), path.join(app, 'node_modules', p)])
        return path.join(app, 'node_modules')
      })
      fs.rmSync(path.join(real, 'packages'), { recursive: true, force: true })
      cols.push(['real', { ...figs, install: inst }])
    }
    printTable(`targets, both workspaces side by side (generated · real)${realTitle}`, [...sideBySide(cols), ...diffRows])

    // The capture budgets on three workspaces, against opencode's own snapshot.
    const hostFiles = Number(process.env.RETAKE_BENCH_HOST_FILES ?? (small ? 20_000 : 200_000))
    const captures = await measureCaptures(work, small, hostFiles, tmp)
    printCaptureTable(captures)

    const host = await hostResponsiveness(work, hostFiles)
    const install = cols.at(-1)![1].install
    printBudgets([
      ...captureBudgets(captures),
      {
        budget: 'Retake of an `npm install` turn (~3,500 new files): ≤ 1 s on disk and in the page cache',
        measured: install ? `${sec(install.onDisk.ms)} on disk, ${sec(install.cached.ms)} cached (${install.onDisk.files} files, ${cols.at(-1)![0]} tree)` : 'not run',
        met: install ? install.onDisk.ms <= 1000 && install.cached.ms <= 1000 : null,
      },
      {
        budget: 'Host responsiveness: while a 200,000-file first capture runs, the host answers a trivial request within 50 ms p99',
        measured: `event-loop delay p99 ${host.p99.toFixed(1)} ms, worst ${host.max.toFixed(1)} ms, during a ${sec(host.captureMs)} first capture of ${host.files} files${host.files < 200_000 ? ' (a smaller tree: RETAKE_BENCH_HOST_FILES)' : ''}`,
        met: host.p99 <= 50,
      },
    ])
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

await main()
