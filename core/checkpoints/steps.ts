// Turning plan actions into journal steps and performing one step. Steps run in an order that
// never needs an rmtree: files and links are removed first, then folders deepest first (only when
// empty), then folders are created shallowest first, then files and links are written.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fsyncDir, tempNameFor } from './fsutil'
import type { Step } from './journal'
import { assertParentInside, keyToAbs } from './paths'
import type { RootRuntime } from './roots'
import type { PlanAction, Xattrs } from './types'
import { KeptInPlace, touchedFolder } from './step-env'
import type { StepEnv } from './step-env'
import { checkUnlink, unlinkFailed } from './unlinks'
import { os, readdirNames } from './os-names'
import { restoreXattrs, withXattrStep } from './xattrs'

/** A file or link goes back at `abs` only if no folder stands there now. */
function assertNotFolder(abs: string, what: string): void {
  let st: fs.Stats
  try {
    st = fs.lstatSync(os(abs))
  } catch {
    return
  }
  if (st.isDirectory()) throw new KeptInPlace(`a folder is here now holding files that are kept; the ${what} was not put back`)
}

/** The folders above `abs` exist as folders, or one of them is a file that is kept. */
function ensureParent(abs: string): void {
  try {
    fs.mkdirSync(os(path.dirname(abs)), { recursive: true })
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOTDIR' || code === 'EEXIST') throw new KeptInPlace('its folder is a file now, and that file is kept; not put back')
    throw err
  }
}

/** Segments in a key (counted, not split: the rmdirs of an install's restore are sorted by it). */
function depth(k: string): number {
  let n = 1
  for (let i = k.indexOf('/'); i !== -1; i = k.indexOf('/', i + 1)) n++
  return n
}

export function buildSteps(actions: PlanAction[], rootIdOf: (abs: string) => string): Step[] {
  const unlinks: Step[] = []
  const rmdirs: Step[] = []
  const mkdirs: Step[] = []
  const writes: Step[] = []
  for (const a of actions) {
    const root = rootIdOf(a.root)
    const key = a.path
    const cur = a.actual
    const tgt = a.target
    const sameType = cur && tgt && cur.type === tgt.type
    if (cur && (!tgt || !sameType || cur.type === 'symlink')) {
      if (cur.type === 'dir') rmdirs.push({ op: 'rmdir', root, key })
      else unlinks.push({ op: 'unlink', root, key })
    }
    if (!tgt) continue
    if (tgt.type === 'dir') {
      if (sameType) writes.push(withXattrStep({ op: 'chmod', root, key, mode: tgt.mode }, cur, tgt))
      else mkdirs.push(withXattrStep({ op: 'mkdir', root, key, mode: tgt.mode }, undefined, tgt))
    } else if (tgt.type === 'symlink') writes.push({ op: 'symlink', root, key, link: tgt.link! })
    else if (tgt.type === 'file') {
      if (sameType && cur!.hash === tgt.hash) writes.push(withXattrStep({ op: 'chmod', root, key, mode: tgt.mode }, cur, tgt))
      else writes.push({ op: 'write', root, key, entry: tgt })
    }
  }
  rmdirs.sort((a, b) => depth(b.key) - depth(a.key))
  mkdirs.sort((a, b) => depth(a.key) - depth(b.key))
  // A folder comes back writable by its owner and gets its recorded mode only after its contents
  // are in (deepest first): a read-only folder could not receive its own files otherwise.
  const modes: Step[] = []
  for (const m of mkdirs) if (m.op === 'mkdir' && (m.mode & 0o700) !== 0o700) modes.unshift({ op: 'chmod', root: m.root, key: m.key, mode: m.mode })
  return [...unlinks, ...rmdirs, ...mkdirs, ...writes, ...modes]
}

/** fsync every folder the steps changed (a folder removed since needs none: its parent is here). */
export function flushFolders(env: StepEnv): void {
  for (const d of env.dirty) {
    try {
      fsyncDir(d)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') throw err
    }
  }
  env.dirty.clear()
}

export function stepTarget(env: StepEnv, s: Step): { root: RootRuntime; abs: string } {
  const root = env.roots.get(s.root)
  if (!root) throw new Error(`unknown root ${s.root}`)
  if (root.shared) throw new Error('shared folders are never rolled back')
  const abs = keyToAbs(root.abs, s.key)
  // The folder above was judged for an earlier step, and no step has removed a folder since.
  const slash = s.key.lastIndexOf('/')
  const parent = slash === -1 ? undefined : `${s.root}:${s.key.slice(0, slash)}`
  if (parent !== undefined && env.judged?.has(parent)) return { root, abs }
  // A folder of the project that is a link now is kept, and so is everything below it, wherever
  // the link points (asked first: a link out of the root is the user's too, not a failure).
  const link = env.probes.get(s.root)?.linkedAncestor(s.key)
  if (link) throw new KeptInPlace(`the folder ${link} above it is a link now (kept); nothing is written through it`)
  assertParentInside(root.real, abs, env.parents, root.abs)
  // Only a folder that is there (resolved into `parents`): a missing one may yet appear as a link.
  if (parent !== undefined && env.parents.has(path.dirname(abs))) (env.judged ??= new Set()).add(parent)
  return { root, abs }
}

/** A delete step: where it is and its content guard judged a moment before its unlink. */
function unlinkStep(env: StepEnv, s: Step, k: string): void {
  const { root, abs } = stepTarget(env, s)
  if (!checkUnlink(env, k, root, abs)) return
  try {
    fs.unlinkSync(os(abs))
  } catch (err) {
    return unlinkFailed(abs, err as NodeJS.ErrnoException)
  }
  touchedFolder(env, abs)
}

/** A step; only a write waits (on nothing but its own file), so the others return no promise. */
export function runStep(env: StepEnv, s: Step, k = `${s.root}:${s.key}`): Promise<void> | void {
  if (s.op === 'unlink') return unlinkStep(env, s, k)
  const { abs } = stepTarget(env, s)
  switch (s.op) {
    case 'rmdir':
      try {
        fs.rmdirSync(os(abs))
        env.dirty.delete(abs) // gone: nothing in it to make durable (its parent is, below)
        touchedFolder(env, abs)
        env.probes.get(s.root)?.forget(s.key)
        env.parents.delete(abs)
        env.judged?.clear()
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'ENOENT') return
        if (code === 'ENOTDIR') throw new KeptInPlace('is a file now; kept')
        if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new KeptInPlace('folder is not empty (holds files the turn did not create); kept')
        throw err
      }
      return
    case 'mkdir':
      ensureParent(abs)
      try {
        fs.mkdirSync(os(abs))
        touchedFolder(env, abs)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
        if (!fs.lstatSync(os(abs)).isDirectory()) throw new KeptInPlace('a file that is kept is here now; the folder was not recreated')
      }
      fs.chmodSync(os(abs), s.mode | 0o700)
      restoreXattrs(env, abs, s.key, s.xattrs)
      return
    case 'chmod':
      // Attributes first: a mode without the owner's write bit would refuse them.
      if (s.xattrs && !fs.lstatSync(os(abs)).isSymbolicLink()) restoreXattrs(env, abs, s.key, s.xattrs)
      fs.chmodSync(os(abs), s.mode)
      return
    case 'symlink': {
      assertNotFolder(abs, 'link')
      ensureParent(abs)
      const tmp = tempNameFor(abs, env.tag)
      fs.symlinkSync(os(s.link), os(tmp))
      renameOrDrop(tmp, abs)
      touchedFolder(env, abs)
      return
    }
    case 'write':
      assertNotFolder(abs, 'file')
      return restoreFile(env, abs, s.entry.hash!, s.entry.mode, s.entry.mtimeMs, s.key, s.entry.xattrs)
  }
}

/**
 * Put a blob back: copy into a temp file in the target's folder while re-hashing (a damaged blob
 * is never installed), fchmod, set mtime, fsync, rename over the target; the folder is fsynced
 * with the others before the restore commits (flushFolders).
 */
async function restoreFile(env: StepEnv, abs: string, hash: string, mode: number, mtimeMs: number, key: string, xattrs?: Xattrs): Promise<void> {
  ensureParent(abs)
  const src = env.blobs.locate(hash)
  if (!src) throw new Error(`checkpoint content ${hash.slice(0, 12)} is missing; not restored`)
  const tmp = tempNameFor(abs, env.tag)
  const hasher = crypto.createHash('sha256')
  const out = fs.openSync(os(tmp), 'wx', 0o600)
  try {
    const input = fs.openSync(src.file, 'r')
    try {
      const buf = Buffer.allocUnsafe(1 << 20)
      let pos = src.offset
      const end = src.offset + src.length
      while (pos < end) {
        const n = fs.readSync(input, buf, 0, Math.min(buf.length, end - pos), pos)
        if (n === 0) break
        pos += n
        hasher.update(buf.subarray(0, n))
        let off = 0
        while (off < n) off += fs.writeSync(out, buf, off, n - off)
        env.bytesWritten.n += n
      }
    } finally {
      fs.closeSync(input)
    }
    if (hasher.digest('hex') !== hash) throw new Error(`checkpoint content ${hash.slice(0, 12)} is damaged; not restored`)
    // On the temporary file, while it is still writable (0600): the file appears with them at once.
    if (xattrs) restoreXattrs(env, tmp, key, xattrs)
    fs.fchmodSync(out, mode)
    if (mtimeMs >= 0) fs.futimesSync(out, mtimeMs / 1000, mtimeMs / 1000)
    fs.fsyncSync(out)
  } catch (err) {
    fs.closeSync(out)
    fs.rmSync(os(tmp), { force: true })
    throw err
  }
  fs.closeSync(out)
  env.hooks?.beforeRename?.(tmp, abs)
  renameOrDrop(tmp, abs)
  touchedFolder(env, abs)
}

/**
 * The last move of a write: a rename that fails (the path became a folder, a permission changed)
 * takes its temp file with it, so no `.retake-….tmp` is left in the user's folder.
 */
function renameOrDrop(tmp: string, abs: string): void {
  try {
    fs.renameSync(os(tmp), os(abs))
  } catch (err) {
    fs.rmSync(os(tmp), { force: true })
    throw err
  }
}

/** Remove temp files a crashed restore left next to its targets. */
export function cleanTemps(env: StepEnv, steps: Step[]): void {
  const dirs = new Set<string>()
  for (const s of steps) {
    try {
      dirs.add(path.dirname(stepTarget(env, s).abs))
    } catch {
      /* unsafe: never touched */
    }
  }
  for (const d of dirs) {
    let names: string[] = []
    try {
      names = readdirNames(d)
    } catch {
      continue
    }
    for (const n of names) if (n.includes(`.retake-${env.tag}-`) && n.endsWith('.tmp')) fs.rmSync(os(path.join(d, n)), { force: true })
  }
}
