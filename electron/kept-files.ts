/**
 * Files the user chose to keep during a retake ("keep mine" on a conflict). In git projects the
 * opencode server's own revert rewrites files from its snapshots and would clobber such an edit;
 * so before the server's revert the kept files are read aside, and after it they are put back
 * exactly (atomic writes, modes kept). Every path is checked to stay inside its root.
 */
import { lstatSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import { writeAtomicSync } from './checkpoints/fsutil'
import { assertParentInside } from './checkpoints/paths'

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

export class KeptFiles {
  private held = new Map<string, HeldFile[]>()

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
    this.held.set(id, list)
    return id
  }

  /** Puts every held file back as it was when held, unless it already is. */
  putBack(id: string): PutBackResult {
    const list = this.held.get(id) ?? []
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
    return result
  }

  drop(id: string): void {
    this.held.delete(id)
  }
}
