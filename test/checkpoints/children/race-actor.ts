// Another process acting while a restore runs: it waits for a sign of the restore's own work
// (a file it wrote back, a file it deleted), then acts at once — an editor's autosave, a package
// manager swapping a folder for a link to its store, a cache bind-mounted over a folder — and says
// "acted". Waits on the file system (fs.watch of the folder, the state checked on every event),
// never on a timer; it gives up after 60 s so a broken restore cannot hang the test run.
//
//   race-actor.ts autosave <file> <content-restored> <target>=<content>...
//   race-actor.ts swap <file-deleted> <folder> <link-target>
//   race-actor.ts mount <file-deleted> <folder> <bind-source>
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const [mode, watched, ...rest] = process.argv.slice(2) as [string, string, ...string[]]

function holds(file: string, text: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8') === text
  } catch {
    return false
  }
}

function gone(file: string): boolean {
  return !fs.existsSync(file)
}

/** Resolves when `sign()` holds, checked at once and on every event in the watched file's folder. */
function until(sign: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const watcher = fs.watch(path.dirname(watched), () => check())
    const check = (): void => {
      if (!sign()) return
      watcher.close()
      resolve()
    }
    check()
  })
}

setTimeout(() => {
  process.stdout.write('gave up waiting for the restore\n')
  process.exit(2)
}, 60_000).unref()

if (mode === 'autosave') {
  const [restored, ...writes] = rest
  const ready = until(() => holds(watched, restored!))
  process.stdout.write('ready\n')
  await ready
  for (const w of writes) {
    const at = w.indexOf('=')
    fs.writeFileSync(w.slice(0, at), w.slice(at + 1))
  }
} else if (mode === 'swap') {
  const [folder, linkTarget] = rest as [string, string]
  const ready = until(() => gone(watched))
  process.stdout.write('ready\n')
  await ready
  // Moved aside, as pnpm moves what it does not know into node_modules/.ignored: the files keep
  // their inodes and change times, so each still proves itself by its lstat alone.
  fs.renameSync(folder, path.join(path.dirname(folder), `.ignored_${path.basename(folder)}`))
  fs.symlinkSync(linkTarget, folder)
} else if (mode === 'mount') {
  const [folder, source] = rest as [string, string]
  const ready = until(() => gone(watched))
  process.stdout.write('ready\n')
  await ready
  const r = spawnSync('mount', ['--bind', source, folder], { encoding: 'utf8' })
  if (r.status !== 0) {
    process.stdout.write(`mount failed: ${r.stderr}\n`)
    process.exit(3)
  }
} else {
  process.stdout.write(`unknown mode ${mode}\n`)
  process.exit(1)
}
process.stdout.write('acted\n')
