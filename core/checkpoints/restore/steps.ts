// Turning plan actions into journal steps and performing one step. Steps run in an order that
// never needs an rmtree: files and links are removed first, then folders deepest first (only when
// empty), then folders are created shallowest first, then files and links are written.
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { lstatOrNull } from '../capture/scanner'
import { checkChain, folderId } from './folder-chain'
import { fsyncDir, tempNameFor } from '../store/fsutil'
import type { Step } from '../store/journal'
import { keyToAbs } from '../store/paths'
import type { RootRuntime } from '../store/roots'
import type { PlanAction, Xattrs } from '../types'
import { KeptInPlace, touchedFolder } from './step-env'
import type { StepEnv } from './step-env'
import { checkUnlink, checkWrite, modeAlreadySet, unlinkFailed } from './step-guards'
import { os, readdirNames } from '../store/os-names'
import { restoreXattrs, withXattrStep } from '../store/xattrs'

/** A file or link goes back at `abs` only if no folder stands there now. */
function assertNotFolder(abs: string, what: string): void {
  if (lstatOrNull(abs)?.isDirectory()) throw new KeptInPlace(`a folder is here now holding files that are kept; the ${what} was not put back`)
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

/** Where a step acts: its root and absolute path (no check: see `enter`). */
export function stepTarget(env: StepEnv, s: Step): { root: RootRuntime; abs: string } {
  const root = env.roots.get(s.root)
  if (!root) throw new Error(`unknown root ${s.root}`)
  if (root.shared) throw new Error('shared folders are never rolled back')
  return { root, abs: keyToAbs(root.abs, s.key) }
}

/**
 * The folders above a step's path, checked now (folder-chain.ts); `make`: missing ones are made.
 * False when one is missing or a file: the path cannot be there.
 */
function enter(env: StepEnv, s: Step, root: RootRuntime, make = false): boolean {
  return checkChain(env.folders, root.abs, s.key, make ? (abs) => touchedFolder(env, abs) : undefined)
}

/** A delete step: its folders and its content guard judged a moment before its unlink. */
function unlinkStep(env: StepEnv, s: Step, k: string): void {
  const { root, abs } = stepTarget(env, s)
  if (enter(env, s, root) && checkUnlink(env, k, root, abs)) {
    try {
      fs.unlinkSync(os(abs))
      touchedFolder(env, abs)
    } catch (err) {
      unlinkFailed(abs, err as NodeJS.ErrnoException)
    }
  } else if (env.guards.has(k)) env.vanished.add(k)
  env.cleared.add(k)
}

/** A step; only a write waits (on nothing but its own file), so the others return no promise. */
export function runStep(env: StepEnv, s: Step, k = `${s.root}:${s.key}`): Promise<void> | void {
  if (s.op === 'unlink') return unlinkStep(env, s, k)
  const { root, abs } = stepTarget(env, s)
  switch (s.op) {
    case 'rmdir':
      if (!enter(env, s, root)) return void env.cleared.add(k)
      try {
        fs.rmdirSync(os(abs))
        env.dirty.delete(abs) // gone: nothing in it to make durable (its parent is, below)
        touchedFolder(env, abs)
        env.folders.delete(abs) // one made later under its name is another folder
        env.cleared.add(k)
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'ENOENT') return void env.cleared.add(k)
        if (code === 'ENOTDIR') throw new KeptInPlace('is a file now; kept')
        if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new KeptInPlace('folder is not empty (holds files the turn did not create); kept')
        if (code === 'EBUSY') throw new KeptInPlace('is a mount point now (another file system); left as it is')
        throw err
      }
      return
    case 'mkdir': {
      enter(env, s, root, true)
      try {
        fs.mkdirSync(os(abs))
        touchedFolder(env, abs)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      }
      const st = fs.lstatSync(os(abs))
      if (!st.isDirectory()) throw new KeptInPlace('a file that is kept is here now; the folder was not recreated')
      const parent = fs.lstatSync(os(path.dirname(abs)))
      if (st.dev !== parent.dev) throw new KeptInPlace('is a mount point now (another file system); left as it is')
      env.folders.set(abs, folderId(st))
      fs.chmodSync(os(abs), s.mode | 0o700)
      restoreXattrs(env, abs, s.key, s.xattrs)
      return
    }
    case 'chmod': {
      const st = enter(env, s, root) ? fs.lstatSync(os(abs), { throwIfNoEntry: false }) : undefined
      if (!st) return void env.vanished.add(k) // gone meanwhile: left as the user left it
      if (st.isSymbolicLink()) throw new KeptInPlace('is a link now (a chmod would follow it); kept')
      if (st.isFile() && !s.xattrs && env.guards.has(k) && modeAlreadySet(env, k, root, abs, s.mode)) return
      if (st.isFile()) checkWrite(env, k, root, abs)
      // Attributes first: a mode without the owner's write bit would refuse them.
      if (s.xattrs) restoreXattrs(env, abs, s.key, s.xattrs)
      fs.chmodSync(os(abs), s.mode)
      return
    }
    case 'symlink': {
      assertNotFolder(abs, 'link')
      enter(env, s, root, true)
      const tmp = tempNameFor(abs, env.tag)
      fs.symlinkSync(os(s.link), os(tmp))
      renameGuarded(env, s, k, root, tmp, abs)
      return
    }
    case 'write':
      assertNotFolder(abs, 'file')
      return restoreFile(env, s, k, root, abs)
  }
}

/**
 * Put a blob back: copy into a temp file in the target's folder while re-hashing (a damaged blob
 * is never installed), fchmod, set mtime, fsync, rename over the target; the folder is fsynced
 * with the others before the restore commits (flushFolders).
 */
async function restoreFile(env: StepEnv, s: Step & { op: 'write' }, k: string, root: RootRuntime, abs: string): Promise<void> {
  const { hash, mode, mtimeMs, xattrs } = s.entry as { hash: string; mode: number; mtimeMs: number; xattrs?: Xattrs }
  const key = s.key
  enter(env, s, root, true)
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
  renameGuarded(env, s, k, root, tmp, abs)
}

/**
 * The last move of a write: right before the rename, the folders above and the path itself are
 * checked again (a write of a large file takes a while: an autosave, or a folder swapped for a
 * link, may have come meanwhile). A check or a rename that fails (the path became a folder, a
 * permission changed) takes the temp file with it, so no `.retake-….tmp` is left behind.
 */
function renameGuarded(env: StepEnv, s: Step, k: string, root: RootRuntime, tmp: string, abs: string): void {
  try {
    if (!enter(env, s, root)) throw new KeptInPlace('its folder was removed while it was written; not put back')
    checkWrite(env, k, root, abs)
    fs.renameSync(os(tmp), os(abs))
  } catch (err) {
    fs.rmSync(os(tmp), { force: true })
    throw err
  }
  touchedFolder(env, abs)
}

/** Remove temp files a crashed restore left next to its targets. */
export function cleanTemps(env: StepEnv, steps: Step[]): void {
  const dirs = new Set<string>()
  for (const s of steps) {
    try {
      const { root, abs } = stepTarget(env, s)
      if (enter(env, s, root)) dirs.add(path.dirname(abs))
    } catch {
      /* below a link or a folder not the project's: never touched */
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
