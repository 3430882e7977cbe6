// Path keys and the checks that keep every restore inside its root. Manifests are data read back
// from disk, so nothing in them is trusted: a key with `..`, an absolute path or a backslash is
// rejected, and at restore time the real path of each target's parent must stay inside the root.
import fs from 'node:fs'
import path from 'node:path'
import { CheckpointError } from '../types'
import type { TurnKey, TurnKeyInput } from '../types'
import { os, realpathOf } from './os-names'

const ID_RE = /^[A-Za-z0-9_.:-]{1,200}$/

export function parseTurnKey(input: TurnKeyInput): TurnKey {
  let key: TurnKey
  if (typeof input === 'string') {
    const parts = input.split('/')
    if (parts.length !== 2) throw new CheckpointError('EBAD_KEY', `turn key must be "session/message": ${input}`)
    key = { sessionID: parts[0]!, messageID: parts[1]! }
  } else key = { sessionID: input.sessionID, messageID: input.messageID }
  if (!ID_RE.test(key.sessionID) || !ID_RE.test(key.messageID) || key.sessionID.startsWith('.') || key.messageID.startsWith('.'))
    throw new CheckpointError('EBAD_KEY', `invalid turn key ${JSON.stringify(input)}`)
  return key
}

export const BLOB_ID_RE = /^[0-9a-f]{64}$/

/**
 * Turn an OS path relative to a root into the stored key: '/'-separated. Names are normalized to
 * NFC only where the file system itself is normalization-insensitive (macOS), so one file keeps
 * one key; on Linux an NFD name is a different file and must keep its bytes.
 */
export function toKey(rel: string, sep: string = path.sep, platform: string = process.platform): string {
  const key = rel.split(sep).join('/')
  return platform === 'darwin' ? key.normalize('NFC') : key
}

export function nameKey(name: string, platform: string = process.platform): string {
  return platform === 'darwin' ? name.normalize('NFC') : name
}

/** Key used to compare paths: case-folded on case-insensitive file systems. */
export function compareKey(key: string, caseInsensitive: boolean): string {
  return caseInsensitive ? key.toLowerCase() : key
}

const BAD_SEGMENT_RE = /(?:^|\/)\.{0,2}(?:\/|$)/

/** A stored key is valid only if it is a plain relative path with no traversal. */
export function isSafeKey(key: string, platform: string = process.platform): boolean {
  if (key.length === 0 || key.length > 4096) return false
  if (key.includes('\0')) return false
  // A backslash is an ordinary name character on POSIX but a separator on Windows.
  if (platform === 'win32' && (key.includes('\\') || /[:*?"<>|]/.test(key))) return false
  if (key.startsWith('/') || /^[A-Za-z]:/.test(key)) return false
  // An empty, '.' or '..' segment, found by one scan (no split per key: asked for every path of a plan).
  return !BAD_SEGMENT_RE.test(key)
}

/** Adds `key` to root `rid`'s keys in `byRoot` (paths by root id, as restores record them). */
export function addKey(byRoot: Map<string, Set<string>>, rid: string, key: string): void {
  const keys = byRoot.get(rid)
  if (keys) keys.add(key)
  else byRoot.set(rid, new Set([key]))
}

/** The key of the folder holding `key` ('' for the root). */
export function parentKey(key: string): string {
  const at = key.lastIndexOf('/')
  return at < 0 ? '' : key.slice(0, at)
}

/** Convert a key to an absolute OS path under root; throws on any traversal. */
export function keyToAbs(root: string, key: string): string {
  if (!isSafeKey(key)) throw new CheckpointError('EBAD_PATH', `unsafe path in manifest: ${JSON.stringify(key)}`)
  // A safe key's segments cannot leave the root, so below a normalized root the path is the root,
  // a separator and the key: no path.join and no path.relative (asked for every path of a plan).
  // Any other root goes the long way.
  if (plainRoot(root)) {
    const body = path.sep === '/' ? key : key.split('/').join(path.sep)
    return root.endsWith(path.sep) ? root + body : root + path.sep + body
  }
  const abs = path.join(root, ...key.split('/'))
  if (!isInside(root, abs)) throw new CheckpointError('EBAD_PATH', `path escapes its root: ${key}`)
  return abs
}

/** Roots already absolute and normalized (a few per store; asked once per path otherwise). */
const plainRoots = new Map<string, boolean>()
function plainRoot(root: string): boolean {
  let plain = plainRoots.get(root)
  if (plain === undefined) {
    if (plainRoots.size > 256) plainRoots.clear()
    plainRoots.set(root, (plain = path.isAbsolute(root) && path.normalize(root) === root))
  }
  return plain
}

export function isInside(root: string, abs: string): boolean {
  return relativeInside(root, abs) !== null
}

/** The key of `abs` below the folder `root`, or null for the root itself and a path not below it. */
export function keyBelow(root: string, abs: string): string | null {
  const rel = relativeInside(root, abs)
  return rel ? toKey(rel) : null
}

function relativeInside(root: string, abs: string): string | null {
  const rel = path.relative(root, abs)
  // Outside: `..` or a first segment `..`, or another drive. A name that only starts with two dots
  // (`..cache`) is inside: taken for `..`, its files were never read by a watched capture nor restored.
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel) ? null : rel
}

/**
 * The parent directory of a target, resolved through symlinks, must be inside the root's real
 * path: a parent replaced by a symlink to /etc must not be read through by a plan (a restore's
 * steps check their folders themselves, each step: folder-chain.ts). Walks up to the nearest
 * existing ancestor (parents may be missing when a restore recreates them).
 * `known` keeps the real paths found, by folder, for one plan: an install's plan resolved the same
 * few hundred folders for thousands of files. It holds only folders that exist.
 */
export function assertParentInside(rootReal: string, abs: string, known?: Map<string, string>, rootAbs?: string): void {
  let dir = path.dirname(abs)
  for (;;) {
    if (known?.has(dir)) return // resolved inside the root earlier in this plan or restore
    let real: string | null = null
    try {
      real = realBelowKnown(dir, known, rootAbs, rootReal) ?? realpathOf(dir)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') throw err
    }
    if (real !== null) {
      if (!isInside(rootReal, real)) throw new CheckpointError('EBAD_PATH', `parent of ${abs} resolves outside its root (${real})`)
      known?.set(dir, real)
      return
    }
    const up = path.dirname(dir)
    if (up === dir) throw new CheckpointError('EBAD_PATH', `no existing parent for ${abs}`)
    dir = up
  }
}

/**
 * The real path of `dir` when the real path of a folder above it is known (or that folder is the
 * root, `rootAbs`, still at its real path `rootReal`) and every folder from there down to `dir` is
 * a folder, not a link: the known one's plus the names, one lstat each; the folders in between are
 * kept in `known` too (inside the root as that one is). Why: realpath walks every segment from `/`
 * (an lstat each), and a restore asks it for each of an install's few hundred folders.
 * Undefined (so realpath decides) in any other case.
 */
function realBelowKnown(dir: string, known: Map<string, string> | undefined, rootAbs?: string, rootReal?: string): string | undefined {
  if (!known) return undefined
  const parent = path.dirname(dir)
  if (parent === dir) return undefined
  let up = known.get(parent)
  if (up === undefined) {
    if (parent === rootAbs) up = realpathOf(parent) === rootReal ? rootReal : undefined
    else if (rootAbs === undefined || parent.length > rootAbs.length) up = realBelowKnown(parent, known, rootAbs, rootReal)
    if (up === undefined) return undefined
    known.set(parent, up)
  }
  const st = fs.lstatSync(os(dir))
  return st.isDirectory() ? path.join(up, path.basename(dir)) : undefined
}

/** Absolute root path in the form used for its identity. */
export function normalizeRootPath(p: string): string {
  const r = path.resolve(p)
  return process.platform === 'darwin' ? r.normalize('NFC') : r
}
