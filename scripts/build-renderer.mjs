// Builds the renderer only when what it is built from changed since the last build.
// `npm run web` and `npm start` (browser mode) used to run a full vite build at every start (~4 s
// before the URL). The inputs' contents are hashed (a few hundred files: milliseconds) and compared
// with the stamp the last build left in dist/renderer; `--force` always builds.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join, relative } from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** What the renderer's bundle is made of: its sources, the shared contract, the build's config and the locked packages. */
const INPUT_DIRS = ['src', 'shared']
const INPUT_FILES = ['vite.config.ts', 'package-lock.json', 'tsconfig.base.json', 'tsconfig.web.json']

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* filesUnder(path)
    else if (entry.isFile()) yield path
  }
}

/** One hash of every input's path, length and bytes, below `root` (the app's folder). */
export function inputsHash(root) {
  const files = [...INPUT_DIRS.flatMap((d) => [...filesUnder(join(root, d))]), ...INPUT_FILES.map((f) => join(root, f)).filter(existsSync)]
  const hash = createHash('sha256')
  for (const file of files.sort()) {
    // The name and the length go in too, so moving bytes between two files changes the hash.
    const bytes = readFileSync(file)
    hash.update(`${relative(root, file)}\0${bytes.length}\0`).update(bytes)
  }
  return hash.digest('hex')
}

function main() {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const outDir = join(root, 'dist', 'renderer')
  const stampFile = join(outDir, '.inputs-sha256')
  const want = inputsHash(root)
  const have = existsSync(stampFile) && existsSync(join(outDir, 'index.html')) ? readFileSync(stampFile, 'utf8').trim() : null
  if (!process.argv.includes('--force') && have === want) return
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
  writeFileSync(stampFile, `${want}\n`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
