// The generated trees the checkpoint benchmarks run on (kept between runs under bench/.work/, each
// with a marker file once complete): a project like the reference one (source files in nested
// folders plus large binaries, a .gitignore) and a monorepo whose packages have their own
// node_modules (not ignored: both Retake and opencode's snapshot take them in).
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** Deterministic workspace: source-like text files in nested folders plus big binaries. */
export function generateWorkspace(ws: string, files: number, binaries: number, binaryBytes: number): void {
  const marker = path.join(ws, `.bench-complete-${files}`)
  if (fs.existsSync(marker)) return void writeGitignore(ws)
  fs.rmSync(ws, { recursive: true, force: true })
  console.log(`generating ${files} source files + ${binaries} × ${(binaryBytes / 1024 / 1024).toFixed(1)} MB binaries in ${ws} …`)
  let seed = 1
  const words = ['const', 'let', 'function', 'return', 'import', 'export', 'await', 'value', 'state', 'props', 'render', 'result']
  for (let i = 0; i < files; i++) {
    const dir = path.join(ws, 'src', `pkg${i % 40}`, `mod${Math.floor(i / 40) % 25}`)
    if (i < 1000) fs.mkdirSync(dir, { recursive: true })
    const lines: string[] = []
    const n = 40 + (i % 200)
    for (let l = 0; l < n; l++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      lines.push(`${words[seed % words.length]} x${l}_${i} = ${seed % 9973} // ${words[(seed >> 5) % words.length]}`)
    }
    fs.writeFileSync(path.join(dir, `file${i}.ts`), lines.join('\n') + '\n')
  }
  fs.mkdirSync(path.join(ws, 'assets'), { recursive: true })
  const chunk = Buffer.alloc(1 << 20)
  for (let b = 0; b < binaries; b++) {
    const fd = fs.openSync(path.join(ws, 'assets', `blob${b}.bin`), 'w')
    for (let off = 0; off < binaryBytes; off += chunk.length) {
      crypto.randomFillSync(chunk)
      fs.writeSync(fd, chunk, 0, Math.min(chunk.length, binaryBytes - off))
    }
    fs.closeSync(fd)
  }
  writeGitignore(ws)
  fs.writeFileSync(marker, '')
}

/**
 * A real project has a .gitignore, and matching every path against it costs a walk as much as the
 * rest of it; git only matches untracked paths. None of these patterns matches a generated file.
 */
function writeGitignore(ws: string): void {
  const file = path.join(ws, '.gitignore')
  if (!fs.existsSync(file)) fs.writeFileSync(file, 'node_modules/\ndist/\ncoverage/\n*.log\n.env\n.DS_Store\n')
}

/** `files` files as a monorepo: packages with sources and their own node_modules (kept between runs). */
export function generateMonorepo(dir: string, files: number): void {
  const marker = path.join(dir, `.bench-complete-${files}`)
  if (fs.existsSync(marker)) return
  fs.rmSync(dir, { recursive: true, force: true })
  console.log(`generating a ${files}-file monorepo in ${dir} …`)
  const perPackage = 5_000
  const made = new Set<string>()
  for (let done = 0, p = 0; done < files; p++) {
    const pkg = path.join(dir, 'packages', `pkg${p}`)
    const n = Math.min(perPackage, files - done)
    for (let i = 0; i < n; i++) {
      // A tenth are the package's sources, the rest its dependencies (40 files per dependency).
      const file = i < n / 10 ? path.join(pkg, 'src', `m${i % 20}`, `f${i}.ts`) : path.join(pkg, 'node_modules', `dep${Math.floor(i / 40)}`, 'lib', `f${i % 40}.js`)
      if (!made.has(path.dirname(file))) fs.mkdirSync(path.dirname(file), { recursive: true })
      made.add(path.dirname(file))
      fs.writeFileSync(file, `// ${p}/${i}\nexport const v${i} = ${i}\n`.repeat(8))
    }
    done += n
  }
  fs.writeFileSync(marker, '')
}
