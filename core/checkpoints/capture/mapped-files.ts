// Files some process keeps mapped shared and writable (Linux: /proc/<pid>/maps). A write through
// such a mapping reaches no file watcher, and once its page is dirty a further write moves neither
// the mtime nor the ctime (the kernel updates them when a clean page is first written), so neither
// the change journal nor the stat proof can vouch for such a file: captures re-read it.
// Private mappings (rw-p) are copy-on-write and never reach the file; only shared ones (rw-s) do.
import fs from 'node:fs'
import path from 'node:path'
import { fromBytes } from '../store/os-names'
import { keyBelow } from '../store/paths'

export interface WritableMappings {
  /** Real paths of the mapped files, in key form (bytes that are not UTF-8 escaped). */
  paths: Set<string>
  /** Their inode numbers: a file mapped through a name outside the project (a hard link) has the same inode. */
  inodes: Set<number>
}

export const noMappings = (): WritableMappings => ({ paths: new Set(), inodes: new Set() })

// start-end perms offset dev inode   path. Field 2 is perms: write bit second, shared/private fourth.
const LINE = /^[0-9a-f]+-[0-9a-f]+ .w.s [0-9a-f]+ [0-9a-f]+:[0-9a-f]+ (\d+) +(\/.*)$/gm
const DELETED = ' (deleted)'

/** Adds the shared writable file mappings of one maps file to `into`. */
export function parseWritableMappings(maps: Buffer, into: WritableMappings): void {
  // latin1 keeps every byte as one char, so the path's bytes come back exactly.
  const text = maps.toString('latin1')
  for (const m of text.matchAll(LINE)) {
    const raw = m[2]!
    // An unlinked file (shared memory) or a device (a GPU's): nothing in any root.
    if (raw.endsWith(DELETED) || raw.startsWith('/dev/')) continue
    // The kernel writes a newline in a name as \012 (and nothing else escaped).
    into.paths.add(fromBytes(Buffer.from(raw.replace(/\\012/g, '\n'), 'latin1')))
    into.inodes.add(Number(m[1]))
  }
}

/**
 * The shared writable file mappings of every process this one may read (the user's own; all of
 * them for root). Read concurrently off the main thread (~10 ms for 100 processes here); on other
 * platforms, and where /proc cannot be read, none.
 */
export async function writableMappings(procDir = '/proc'): Promise<WritableMappings> {
  const out = noMappings()
  if (process.platform !== 'linux') return out
  let pids: string[]
  try {
    pids = (await fs.promises.readdir(procDir)).filter((n) => /^\d+$/.test(n))
  } catch {
    return out
  }
  await Promise.all(
    pids.map(async (pid) => {
      try {
        const maps = await fs.promises.readFile(path.join(procDir, pid, 'maps'))
        if (maps.includes(' rw-s ') || maps.includes(' rwxs ')) parseWritableMappings(maps, out)
      } catch {
        /* another user's process, or gone */
      }
    }),
  )
  return out
}

/** Both sets together: a file mapped at the last capture may have been written just before its unmap. */
export function unionMappings(a: WritableMappings, b: WritableMappings): WritableMappings {
  return { paths: new Set([...a.paths, ...b.paths]), inodes: new Set([...a.inodes, ...b.inodes]) }
}

/** The keys of the mapped files under a root (its real path: the kernel names files by theirs). */
export function mappedKeysUnder(m: WritableMappings, rootReal: string): string[] {
  return [...m.paths].flatMap((p) => keyBelow(rootReal, p) ?? [])
}
