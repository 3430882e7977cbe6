// Which stores checkpoint a folder, across Retake instances. Two instances with different data dirs
// (a second profile, a portable copy, browser mode with its own folder) on one project each keep
// their own store, and neither saw the other's turns: what the other instance's agent wrote during
// a turn here looked like this turn's work, and a retake here rolled it back without a word. Each
// store registers the real path of every folder it rolls back in a folder private to the user
// (`<registry>/<hash of the folder>/<hash of the store>.json`); a plan reads the turn records of
// the other stores registered on its folders and weighs them as another project's turns on a
// shared folder (ownership.ts markForeign): uncertain, kept unless the user rolls them back.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sha256 } from './blob-io'
import { listDir, mkdirPrivate, readJson, writeJsonAtomic } from './fsutil'
import { TURN_FORMAT, type TurnRecord } from './records'
import type { RootRuntime } from './roots'
import type { ForeignTurn } from '../types'

const hash = (s: string): string => sha256(s).slice(0, 16)

/**
 * The user's registry folder: `$XDG_RUNTIME_DIR/retake/projects` (Linux: private to the user, gone
 * at logout), else `<tmpdir>/retake-<uid>/projects` made 0700 and checked to be the user's own.
 * Null when neither can be had: then each instance sees its own turns only.
 */
export function projectRegistryDir(): string | null {
  const runtime = process.env.XDG_RUNTIME_DIR
  const base = runtime && path.isAbsolute(runtime) ? path.join(runtime, 'retake') : path.join(os.tmpdir(), `retake-${process.getuid?.() ?? 'user'}`)
  try {
    mkdirPrivate(base)
    const st = fs.lstatSync(base)
    // A shared temp folder: someone else could have made it first, and fed us their entries.
    if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()) || (st.mode & 0o077) !== 0) return null
    return path.join(base, 'projects')
  } catch {
    return null
  }
}

interface Entry {
  folder: string
  storeDir: string
}

/** Record that `storeDir` rolls back each of `roots` (their real paths). Best effort. */
export function registerStore(registry: string, storeDir: string, roots: RootRuntime[]): void {
  for (const r of roots) {
    if (r.shared) continue
    try {
      const dir = path.join(registry, hash(r.real))
      mkdirPrivate(dir)
      const file = path.join(dir, `${hash(storeDir)}.json`)
      if (!fs.existsSync(file)) writeJsonAtomic(file, { folder: r.real, storeDir } satisfies Entry)
    } catch {
      /* a registry that cannot be written costs only what it adds */
    }
  }
}

/** The not yet restored turns of the other stores registered on `roots`, as foreign turns. */
export function registeredTurns(registry: string, storeDir: string, roots: RootRuntime[]): ForeignTurn[] {
  const byStore = new Map<string, string[]>()
  for (const r of roots) {
    if (r.shared) continue
    const dir = path.join(registry, hash(r.real))
    for (const n of listDir(dir).filter((n) => n.endsWith('.json'))) {
      const e = readJson<Entry>(path.join(dir, n))
      if (!e || e.folder !== r.real || typeof e.storeDir !== 'string' || path.resolve(e.storeDir) === storeDir) continue
      if (!fs.existsSync(path.join(e.storeDir, 'format.json'))) {
        fs.rmSync(path.join(dir, n), { force: true }) // a store deleted since: nothing to weigh
        continue
      }
      byStore.set(e.storeDir, [...(byStore.get(e.storeDir) ?? []), r.real])
    }
  }
  const out: ForeignTurn[] = []
  for (const [other, paths] of byStore) {
    for (const t of readTurns(other)) {
      if (t.status !== 'restored') out.push({ turn: { sessionID: t.sessionID, messageID: t.messageID }, createdAt: t.createdAt, sealedAt: t.sealedAt, paths })
    }
  }
  return out
}

/** Another store's turn records, read only (it is owned by its own instance). */
function readTurns(storeDir: string): TurnRecord[] {
  const turnsDir = path.join(storeDir, 'turns')
  const out: TurnRecord[] = []
  for (const s of listDir(turnsDir)) {
    for (const f of listDir(path.join(turnsDir, s)).filter((n) => n.endsWith('.json'))) {
      const t = readJson<TurnRecord>(path.join(turnsDir, s, f))
      if (t?.format === TURN_FORMAT && typeof t.createdAt === 'number') out.push(t)
    }
  }
  return out
}
