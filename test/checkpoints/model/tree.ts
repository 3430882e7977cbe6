// The model's view of a folder: every path (raw bytes kept as a latin1 string, so non-UTF-8 names
// round-trip) mapped to what a user would see there. Pure comparisons plus one thin disk reader.
import fs from 'node:fs'
import { fromBytes } from '../../../core/checkpoints/store/os-names'
import { readTags } from './tags'

/**
 * `tags`: the `user.*` extended attributes (model/tags.ts), absent when none. `ino`: the file's
 * inode as read (which names are one file: model/names-links.ts); never compared.
 */
export type Node = { t: 'f'; data: Buffer; mode: number; tags?: string; ino?: number } | { t: 'd'; tags?: string } | { t: 'l'; target: string }
export type Tree = Map<string, Node>

/** Absolute path bytes of a model path (raw bytes, latin1-keyed) under a root. */
export function absBytes(root: string, rel: string): Buffer {
  return rel === '' ? Buffer.from(root) : Buffer.concat([Buffer.from(root + '/'), Buffer.from(rel, 'latin1')])
}

/** How the engine names a model path in plans and results (UTF-8, NFC). */
/** A model path (latin1 of its bytes) in the engine's key form (bytes that are not UTF-8 escaped; see os-names.ts). */
export const keyName = (rel: string): string => fromBytes(Buffer.from(rel, 'latin1'))
export const engineName = (rel: string): string => keyName(rel).normalize('NFC')

/** Human-readable form of a model path for messages (hex for bytes that are not UTF-8). */
export function showPath(rel: string): string {
  const b = Buffer.from(rel, 'latin1')
  const s = b.toString('utf8')
  return Buffer.from(s, 'utf8').equals(b) ? JSON.stringify(s) : `hex:${b.toString('hex')}`
}

export function readTree(root: string): Tree {
  const out: Tree = new Map()
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(absBytes(root, rel), { withFileTypes: true, encoding: 'buffer' })) {
      const r = rel ? `${rel}/${e.name.toString('latin1')}` : e.name.toString('latin1')
      const abs = absBytes(root, r)
      if (e.isDirectory()) {
        out.set(r, withTags({ t: 'd' }, root, r))
        walk(r)
      } else if (e.isSymbolicLink()) out.set(r, { t: 'l', target: fs.readlinkSync(abs, { encoding: 'buffer' }).toString('latin1') })
      else {
        const st = fs.lstatSync(abs)
        out.set(r, withTags({ t: 'f', data: fs.readFileSync(abs), mode: st.mode & 0o7777, ino: st.ino }, root, r))
      }
    }
  }
  walk('')
  return out
}

export function nodeEq(a: Node | undefined, b: Node | undefined): boolean {
  if (!a || !b) return a === b
  if (a.t !== b.t) return false
  if (a.t === 'f' && b.t === 'f') return a.mode === b.mode && a.data.equals(b.data) && a.tags === b.tags
  if (a.t === 'l' && b.t === 'l') return a.target === b.target
  return a.t === 'd' && b.t === 'd' && a.tags === b.tags
}

function withTags<N extends Node & { tags?: string }>(n: N, root: string, rel: string): N {
  const tags = readTags(root, rel)
  if (tags !== undefined) n.tags = tags
  return n
}

export function showNode(n: Node | undefined): string {
  if (!n) return 'absent'
  if (n.t === 'd') return n.tags ? `dir(tags ${n.tags})` : 'dir'
  if (n.t === 'l') return `link→${showPath(n.target)}`
  const head = n.data
    .subarray(0, 24)
    .toString('latin1')
    .replace(/[^\x20-\x7e]/g, '.')
  return `file(${n.data.length}B mode ${n.mode.toString(8)} "${head}"${n.tags ? ` tags ${n.tags}` : ''})`
}

/** Paths whose node differs between two trees. */
export function changedPaths(a: Tree, b: Tree): Set<string> {
  const out = new Set<string>()
  for (const k of new Set([...a.keys(), ...b.keys()])) if (!nodeEq(a.get(k), b.get(k))) out.add(k)
  return out
}

export const isAncestor = (anc: string, p: string): boolean => p.startsWith(anc + '/')
export const related = (a: string, b: string): boolean => a === b || isAncestor(a, b) || isAncestor(b, a)
