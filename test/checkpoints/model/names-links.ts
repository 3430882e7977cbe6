// Long names and hard links in the model: files named up to the 255-byte limit, and a file's second
// name inside the root, written in place through either name (a pnpm store's links, an editor that
// writes without renaming). Drawn on a random stream of their own, so the seeds recorded in
// model.test.ts replay the rest of their scenarios as before.
import fs from 'node:fs'
import { rng, type Rng } from './gen'
import { absBytes, type Tree } from './tree'

/** The stream of a seed for these operations. */
export const linkRng = (seed: number): Rng => rng((seed * 3266489917 + 0x6c6e) >>> 0)

let made = 0

/** Up to `n` operations on `tree` (created files, second names, writes in place); returns the log. */
export function namesAndLinks(r: Rng, root: string, tree: Tree, n: number, who: string): string[] {
  const log: string[] = []
  const dirs = ['', ...[...tree].filter(([, node]) => node.t === 'd').map(([p]) => p)]
  const files = [...tree].filter(([p, node]) => node.t === 'f' && p !== '.gitignore').map(([p]) => p)
  for (let i = 0; i < n; i++) {
    const kind = r.int(3)
    const dir = r.pick(dirs)
    const at = (name: string) => (dir ? `${dir}/${name}` : name)
    if (kind === 0) {
      // 200 to 255 bytes: a restore's temporary name must not grow from it.
      const name = `long-${made++}-`.padEnd(200 + r.int(56), 'n')
      fs.writeFileSync(absBytes(root, at(name)), `${who} wrote a file with a ${name.length}-byte name\n`)
      log.push(`${who}-long ${at(name).slice(0, 24)}… (${name.length} bytes)`)
    } else if (kind === 1 && files.length) {
      const from = r.pick(files)
      const to = at(`link-${made++}`)
      fs.linkSync(absBytes(root, from), absBytes(root, to))
      log.push(`${who}-link ${to} → ${from}`)
    } else if (files.length) {
      // In place (same inode): every other name of the file changes with it.
      const p = r.pick(files)
      fs.writeFileSync(absBytes(root, p), `${who} wrote through ${p}\n`, { flag: 'r+' })
      log.push(`${who}-write-in-place ${p} (${fs.lstatSync(absBytes(root, p)).nlink} names)`)
    }
  }
  return log
}
