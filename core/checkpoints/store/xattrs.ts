// Extended attributes of files and folders: desktop tags (`user.xdg.tags`), any `user.*`, macOS
// quarantine and Finder tags, POSIX ACLs (`system.posix_acl_access`). A capture records them with
// the entry, a restore writes them onto the temporary file before its rename (or onto the file or
// folder it keeps), so a restore and its Undo keep them. Node has no xattr API: the native module
// @napi-rs/xattr is loaded if it can be (Linux, macOS); where it cannot (Windows, a build without
// it) nothing is recorded and nothing written, as before.
import { loadNative } from '../../native-modules'
import { hasRawBytes } from './os-names'
import type { Step } from './journal'
import type { Entry, Xattrs } from '../types'

type XattrModule = {
  listAttributesSync(path: string): string[]
  getAttributeSync(path: string, name: string): Buffer | null
  setAttributeSync(path: string, name: string, value: Uint8Array): void
  removeAttributeSync(path: string, name: string): void
}

/** None on Windows, or where the module is not shipped: nothing is recorded or written. */
const xattr = (): XattrModule | null => loadNative<XattrModule>('@napi-rs/xattr')

/**
 * Attributes over this many bytes in total (names and values) are not recorded: the entry says
 * `'unread'`, and a restore leaves whatever attributes the path has. Why a cap: every entry of a
 * snapshot is held in memory and written as JSON; a 64 KiB tag list is already far past any desktop's.
 */
export const XATTR_CAP = 64 * 1024

/** The errno in the module's error text ("… (os error 95)"). */
function errnoOf(err: unknown): number {
  const m = /\(os error (\d+)\)/.exec((err as Error)?.message ?? '')
  return m ? Number(m[1]) : -1
}
/**
 * Labels the system sets on every file it makes and a user process may not change: security
 * modules' (`security.selinux`, file capabilities) and macOS's provenance and SIP marks. Not
 * recorded and never removed: a restored file gets the labels its folder gives it, and recording
 * them would make every file the restore wrote look changed.
 */
const SYSTEM_OWNED = /^(security\.|com\.apple\.(provenance|rootless)$)/
const ENODATA = new Set([61, 93]) // Linux ENODATA, macOS ENOATTR
const UNSUPPORTED = new Set([95, 45, 102]) // Linux EOPNOTSUPP, macOS ENOTSUP / EOPNOTSUPP

/**
 * A file's or folder's attributes, sorted by name, values base64; undefined when it has none (or
 * they cannot be recorded here: no module, a path that is not UTF-8, a file system without them);
 * `'unread'` when they are over the cap or could not be read. Never call it on a symlink: the
 * module follows links.
 */
export function readXattrs(abs: string): Xattrs | undefined {
  const x = xattr()
  if (!x || hasRawBytes(abs)) return undefined
  let names: string[]
  try {
    names = x.listAttributesSync(abs)
  } catch (err) {
    return UNSUPPORTED.has(errnoOf(err)) || errnoOf(err) === 2 ? undefined : 'unread'
  }
  names = names.filter((n) => !SYSTEM_OWNED.test(n)).sort()
  if (!names.length) return undefined
  const out: [string, string][] = []
  let total = 0
  for (const name of names) {
    let v: Buffer | null
    try {
      v = x.getAttributeSync(abs, name)
    } catch (err) {
      if (ENODATA.has(errnoOf(err))) continue // removed since the listing
      return 'unread'
    }
    if (!v) continue
    total += name.length + v.length
    if (total > XATTR_CAP) return 'unread'
    out.push([name, v.toString('base64')])
  }
  return out.length ? out : undefined
}

/** Records `abs`'s attributes on its new entry (a file or folder, never a link). */
export function withXattrs(entry: Entry, abs: string): void {
  const x = readXattrs(abs)
  if (x) entry.xattrs = x
}

/** Does `abs` still hold the attributes `old` recorded (exactly: an unread record is read again)? */
export function xattrsKept(abs: string, old: Entry): boolean {
  if (!xattr()) return true
  const x = readXattrs(abs)
  return x === old.xattrs || (x !== 'unread' && old.xattrs !== 'unread' && sameXattrs(x, old.xattrs))
}

/** Do two records hold the same attributes? An unread side is taken as equal (nothing is known). */
export function sameXattrs(a: Xattrs | undefined, b: Xattrs | undefined): boolean {
  if (a === b || a === 'unread' || b === 'unread') return true
  const la = a ?? []
  const lb = b ?? []
  if (la.length !== lb.length) return false
  for (let i = 0; i < la.length; i++) if (la[i]![0] !== lb[i]![0] || la[i]![1] !== lb[i]![1]) return false
  return true
}

/** Equal records (snapshots: a record that became or stopped being `'unread'` is a new record). */
export function sameRecordedXattrs(a: Entry, b: Entry): boolean {
  if (a.xattrs === 'unread' || b.xattrs === 'unread') return a.xattrs === b.xattrs
  return sameXattrs(a.xattrs, b.xattrs)
}

/** Shape check of a record read back from disk. */
export function validXattrs(v: unknown): boolean {
  if (v === 'unread') return true
  if (!Array.isArray(v)) return false
  return v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && p[0].length > 0 && typeof p[1] === 'string')
}

/** The attributes a restore step must write so that `cur` holds `tgt`'s, or undefined when they agree. */
export function xattrsToWrite(cur: Entry | undefined, tgt: Entry): Xattrs | undefined {
  if (tgt.xattrs === 'unread' || sameXattrs(cur?.xattrs, tgt.xattrs)) return undefined
  return tgt.xattrs ?? []
}

/** A `chmod` or `mkdir` step that also sets the attributes `tgt` recorded, when `cur` differs. */
export function withXattrStep(step: Step & { op: 'chmod' | 'mkdir' }, cur: Entry | undefined, tgt: Entry): Step {
  const x = xattrsToWrite(cur, tgt)
  if (x && (x.length || cur)) step.xattrs = x
  return step
}

/**
 * Makes `abs` (a file or folder, never a link) hold exactly `want`: sets what differs, removes what
 * was not recorded (but never a system label, SYSTEM_OWNED).
 * Returns the names that could not be written, or null when all were.
 */
export function writeXattrs(abs: string, want: Xattrs | undefined): string[] | null {
  if (want === undefined || want === 'unread') return null
  const x = xattr()
  if (!x || hasRawBytes(abs)) return want.length ? want.map(([n]) => n) : null
  const failed: string[] = []
  let have: string[] = []
  try {
    have = x.listAttributesSync(abs)
  } catch (err) {
    if (!UNSUPPORTED.has(errnoOf(err))) throw err
  }
  const wanted = new Map(want)
  for (const name of have) {
    if (wanted.has(name) || SYSTEM_OWNED.test(name)) continue
    try {
      x.removeAttributeSync(abs, name)
    } catch (err) {
      if (!ENODATA.has(errnoOf(err))) failed.push(name)
    }
  }
  for (const [name, b64] of want) {
    const value = Buffer.from(b64, 'base64')
    try {
      const now = have.includes(name) ? x.getAttributeSync(abs, name) : null
      if (now && now.equals(value)) continue
      x.setAttributeSync(abs, name, value)
    } catch (err) {
      // A Linux user.* attribute that cannot be set is a failure of the restore; others
      // (`trusted.*`, ACLs in `system.*`, macOS names) may be refused to a user process: reported.
      if (name.startsWith('user.') && !UNSUPPORTED.has(errnoOf(err))) throw err
      failed.push(name)
    }
  }
  return failed.length ? failed : null
}

/** Notes of attributes a restore could not put back, by its step environment (restore.ts reports them). */
const notes = new WeakMap<object, string[]>()

/** writeXattrs for a restore step at `key`; names it could not write become a warning of the restore. */
export function restoreXattrs(env: object, abs: string, key: string, want: Xattrs | undefined): void {
  const failed = writeXattrs(abs, want)
  if (failed) notes.set(env, [...xattrNotes(env), `${key}: extended attributes not restored (${failed.join(', ')})`])
}

export function xattrNotes(env: object): string[] {
  return notes.get(env) ?? []
}
