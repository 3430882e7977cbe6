// Extended attributes in the model: desktop tags (`user.*`) set and removed on files and folders
// before and during a turn and by the user after it. Drawn on a random stream of their own, so the
// seeds recorded in model.test.ts replay the rest of their scenarios as before. Where `user.*`
// attributes cannot be set (no module, a file system without them) every call here does nothing.
import { createRequire } from 'node:module'
import path from 'node:path'
import { rng, type Rng } from './gen'
import { absBytes, type Tree } from './tree'

type X = {
  listAttributesSync(p: string): string[]
  getAttributeSync(p: string, n: string): Buffer | null
  setAttributeSync(p: string, n: string, v: Uint8Array): void
  removeAttributeSync(p: string, n: string): void
}
let mod: X | null | undefined
function xattr(): X | null {
  if (mod === undefined) {
    try {
      mod = createRequire(import.meta.url)('@napi-rs/xattr') as X
    } catch {
      mod = null
    }
  }
  return mod
}

/** A model path as a string path, or null when its bytes are not UTF-8 (the module takes strings only: a documented limit). */
function strPath(root: string, rel: string): string | null {
  const b = absBytes(root, rel)
  const s = b.toString('utf8')
  return Buffer.from(s, 'utf8').equals(b) ? s : null
}

/** The `user.*` attributes of a file or folder as one comparable string, or undefined when none (or unreadable here). */
export function readTags(root: string, rel: string): string | undefined {
  const x = xattr()
  const p = x && strPath(root, rel)
  if (!p) return undefined
  try {
    const names = x!
      .listAttributesSync(p)
      .filter((n) => n.startsWith('user.'))
      .sort()
    return names.length ? names.map((n) => `${n}=${x!.getAttributeSync(p, n)?.toString('hex')}`).join(',') : undefined
  } catch {
    return undefined
  }
}

/** The tag stream of a seed. */
export const tagRng = (seed: number): Rng => rng((seed * 2246822519 + 0x7a65) >>> 0)

const TAGS = ['red', 'work,important', 'holiday', '']

/**
 * Sets, changes or removes a tag on up to `n` random files (and folders, with `folders`) of `tree`;
 * returns the log. Paths below a symlink never appear in a tree, and links are never tagged.
 */
export function tagSome(r: Rng, root: string, tree: Tree, n: number, who: string, folders = true): string[] {
  const x = xattr()
  const log: string[] = []
  const cands = [...tree].filter(([p, node]) => p !== '.gitignore' && (node.t === 'f' || (folders && node.t === 'd'))).map(([p]) => p)
  for (let i = 0; i < n && cands.length; i++) {
    const rel = r.pick(cands)
    const tag = r.pick(TAGS)
    const name = r.chance(0.8) ? 'user.xdg.tags' : 'user.comment'
    const p = x && strPath(root, rel)
    if (!p) continue
    try {
      if (tag) x!.setAttributeSync(p, name, Buffer.from(tag))
      else x!.removeAttributeSync(p, name)
      log.push(`${who}-tag ${path.posix.normalize(rel)} ${name}=${JSON.stringify(tag)}`)
    } catch {
      /* no such attribute to remove, or a file system without them */
    }
  }
  return log
}
