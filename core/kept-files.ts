/**
 * Files the user chose to keep during a retake ("keep mine" on a conflict). In git projects the
 * opencode server's own revert rewrites files from its snapshots and would clobber such an edit;
 * so before the server's revert the kept files are read aside, and after it they are put back
 * exactly (atomic writes, modes kept). Every path is checked to stay inside its root.
 *
 * A hold is also written to disk (in the data dir, 0600) before its id is handed out: if Retake dies
 * between the server's revert and the put-back, the next start still has the user's bytes.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { writeJson } from './store/json-file'
import { assertParentInside, writeAtomicSync } from './checkpoints/index'

interface HeldFile {
  root: string
  path: string
  /** null = the file did not exist when held. */
  bytes: Buffer | null
  mode: number
}

export interface PutBackResult {
  restored: string[]
  failed: { path: string; error: string }[]
}

/**
 * The file's path under its root, refused when it leaves the root: by its name (`..`), or through a
 * folder that is a symlink leading out. The root itself may be reached through a link (a project
 * opened as ~/work/app → /data/app): its own real path is what the parent is compared with.
 */
function insideRoot(root: string, rel: string): string {
  const abs = resolve(root, rel)
  const back = relative(resolve(root), abs)
  if (back === '' || back.startsWith('..') || isAbsolute(back)) throw new Error(`${rel} is outside ${root}`)
  assertParentInside(realpathSync(root), abs)
  return abs
}

const HOLD_ID = /^[0-9a-f]{16}$/

export class KeptFiles {
  private held = new Map<string, HeldFile[]>()

  /** `dir`: where holds are persisted (none: memory only). */
  constructor(private readonly dir?: string) {}

  private file(id: string): string | null {
    return this.dir && HOLD_ID.test(id) ? join(this.dir, `${id}.json`) : null
  }

  private load(id: string): HeldFile[] {
    const file = this.file(id)
    if (!file) return []
    try {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as { root: string; path: string; mode: number; bytes: string | null }[]
      return raw.map((f) => ({ root: f.root, path: f.path, mode: f.mode, bytes: f.bytes === null ? null : Buffer.from(f.bytes, 'base64') }))
    } catch {
      return []
    }
  }

  /** Holds left on disk by a run that died before putting them back. */
  pending(): string[] {
    if (!this.dir) return []
    try {
      return readdirSync(this.dir)
        .filter((n) => n.endsWith('.json'))
        .map((n) => n.slice(0, -5))
        .filter((id) => HOLD_ID.test(id))
    } catch {
      return []
    }
  }

  hold(files: { root: string; path: string }[]): string {
    const id = randomBytes(8).toString('hex')
    const list: HeldFile[] = []
    for (const f of files) {
      const abs = insideRoot(f.root, f.path)
      let st
      try {
        st = lstatSync(abs)
      } catch {
        list.push({ ...f, bytes: null, mode: 0o644 })
        continue
      }
      // Only regular files are held; links and folders are never rewritten by a revert of file content.
      if (!st.isFile()) continue
      list.push({ ...f, bytes: readFileSync(abs), mode: st.mode & 0o7777 })
    }
    const file = this.file(id)
    if (file)
      writeJson(
        file,
        list.map((f) => ({ root: f.root, path: f.path, mode: f.mode, bytes: f.bytes?.toString('base64') ?? null })),
      )
    this.held.set(id, list)
    return id
  }

  /** Puts every held file back as it was when held, unless it already is. */
  putBack(id: string): PutBackResult {
    const list = this.held.get(id) ?? this.load(id)
    this.held.delete(id)
    const result: PutBackResult = { restored: [], failed: [] }
    for (const f of list) {
      try {
        const abs = insideRoot(f.root, f.path)
        let current: Buffer | null = null
        try {
          current = readFileSync(abs)
        } catch {
          current = null
        }
        if (f.bytes === null) {
          if (current !== null) {
            rmSync(abs)
            result.restored.push(join(f.root, f.path))
          }
          continue
        }
        if (current !== null && current.equals(f.bytes)) continue
        writeAtomicSync(abs, f.bytes, { mode: f.mode })
        result.restored.push(join(f.root, f.path))
      } catch (err) {
        result.failed.push({ path: f.path, error: (err as Error).message })
      }
    }
    // A hold that could not be put back whole stays on disk: the user's bytes are never dropped.
    if (result.failed.length === 0) this.drop(id)
    else this.held.set(id, list)
    return result
  }

  drop(id: string): void {
    this.held.delete(id)
    const file = this.file(id)
    if (file) rmSync(file, { force: true })
  }
}
