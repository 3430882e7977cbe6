// Random trees, turns and user edits, all from one seed (a seed replays the same scenario).
// Each operation acts on the disk directly; the model reads the tree back (readTree) at every phase,
// so the generator never has to predict what an operation did.
import fs from 'node:fs'
import { absBytes, readTree } from './tree'
import type { Tree } from './tree'

/** Classes of scenario the engine may not handle yet; each is off unless named (see flags.ts). */
export interface Flags {
  /** UTF-8 names with spaces, accents (NFC and NFD), CJK, emoji. */
  oddNames: boolean
  /** Names whose bytes are not UTF-8. */
  nonUtf8Names: boolean
  /** The turn rewrites the root .gitignore (files change from ignored to tracked and back). */
  gitignoreRewrite: boolean
  /** The user writes new files while the turn runs (between capture and seal). */
  userEditDuringTurn: boolean
  /** The user rewrites a file with content of the same size and puts its mtime back. */
  sameSizeSameMtime: boolean
  /** The user edits files between a restore and its undo. */
  userEditBeforeUndo: boolean
  /** The user edits, deletes or writes inside a path whose kind the turn changed (file ↔ folder ↔ link). */
  userTouchesTypeSwap: boolean
  /** The turn replaces a folder by a symlink or a symlink by a folder (the restore must not follow the link). */
  folderLinkSwap: boolean
  /** Another process writes at a path of the plan right before its step (model/during-apply.ts). */
  writeDuringApply: boolean
  /** Names of 200–255 bytes, second names of files inside the root, writes in place (model/names-links.ts). */
  namesAndLinks: boolean
}

export type Rng = { next(): number; int(n: number): number; pick<T>(xs: readonly T[]): T; chance(p: number): boolean }

export function rng(seed: number): Rng {
  let a = seed >>> 0 || 0x9e3779b9
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number): number => Math.floor(next() * n)
  return { next, int, pick: (xs) => xs[int(xs.length)]!, chance: (p) => next() < p }
}

const latin1 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1')
const PLAIN = ['a', 'b', 'src', 'lib', 'docs', 'main.ts', 'readme.md', 'data.bin', 'notes.txt', 'app.log', 'cache', 'x.tmp', 'run.sh']
const ODD = ['with space.txt', 'café.md', 'cafe\u0301-nfd.md', '名前.txt', '😀 emoji', '-dash', 'UPPER.TXT'].map(latin1)
const NON_UTF8 = ['\xff\xfe-raw.txt', 'bad\xe9name', '\xc3(x']
export const OUTSIDE_FILE = 'outside-target.txt'

export class Gen {
  private counter = 0
  constructor(
    readonly r: Rng,
    readonly root: string,
    readonly outside: string,
    readonly flags: Flags,
  ) {}

  name(): string {
    const pools = [PLAIN, ...(this.flags.oddNames ? [ODD] : []), ...(this.flags.nonUtf8Names ? [NON_UTF8] : [])]
    return `${this.r.pick(this.r.pick(pools))}${this.r.chance(0.5) ? '' : '-' + this.counter++}`
  }

  content(): Buffer {
    const n = this.r.pick([0, 1, 7, 40, 300, 5000, 70_000])
    const b = Buffer.allocUnsafe(n)
    const text = this.r.chance(0.6)
    for (let i = 0; i < n; i++) b[i] = text ? 97 + this.r.int(26) : this.r.int(256)
    return b
  }

  abs(rel: string): Buffer {
    return absBytes(this.root, rel)
  }

  mkdirs(rel: string): void {
    fs.mkdirSync(this.abs(rel), { recursive: true })
  }

  writeFile(rel: string, data: Buffer, mode = this.r.pick([0o644, 0o644, 0o755, 0o600])): void {
    const slash = rel.lastIndexOf('/')
    if (slash > 0) this.mkdirs(rel.slice(0, slash))
    fs.rmSync(this.abs(rel), { recursive: true, force: true })
    fs.writeFileSync(this.abs(rel), data)
    fs.chmodSync(this.abs(rel), mode)
  }

  symlinkTarget(): string {
    return this.r.pick(['a', 'nowhere', '.', `../outside/${OUTSIDE_FILE}`, `${this.outside}/${OUTSIDE_FILE}`, this.outside])
  }

  /** A fresh path: under an existing real folder of the tree (never through a symlink), not existing yet. */
  freshPath(tree: Tree, depth = this.r.int(3)): string {
    const dirs = ['', ...[...tree].filter(([, n]) => n.t === 'd').map(([p]) => p)]
    for (;;) {
      let p = this.r.pick(dirs)
      let ok = true
      for (let i = 0; i <= depth && ok; i++) {
        p = p ? `${p}/${this.name()}` : this.name()
        const there = tree.get(p)
        // The last segment must be new; folders on the way may exist only as real folders.
        ok = i === depth ? there === undefined : there === undefined || there.t === 'd'
      }
      if (ok) return p
    }
  }

  initialTree(): void {
    if (this.r.chance(0.8)) this.writeFile('.gitignore', Buffer.from(this.r.pick(['*.log\ncache/\n', '*.log\n', 'cache/\n*.tmp\n'])), 0o644)
    const n = 3 + this.r.int(25)
    for (let i = 0; i < n; i++) {
      const p = this.freshPath(readTree(this.root))
      const kind = this.r.int(10)
      if (kind < 7) this.writeFile(p, this.content())
      else if (kind < 8) this.mkdirs(p)
      else {
        const slash = p.lastIndexOf('/')
        if (slash > 0) this.mkdirs(p.slice(0, slash))
        fs.symlinkSync(this.symlinkTarget(), this.abs(p))
      }
    }
  }
}
