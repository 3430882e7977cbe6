// What a capture asks of the change journals (watchedKeys), and the journals' own check. A watcher
// is blind to a few kinds of writes: through another name of a file (a hard link from outside), and
// through a shared writable memory mapping. Files known to be either are looked at by every capture
// whatever the journal says (unwatchedKeys; mapped-files.ts). What is left — a file that gains an
// outside name while the journal runs, a mapping made and dropped between two captures — is bounded
// by the check: every JOURNAL_CHECK_EVERY watched captures the engine walks in full anyway and
// compares, and a file the walk found changed that the journal never reported means the journal is
// blind on that root, which from then on is walked in full (the capture says so in its warnings).
import fs from 'node:fs'
import path from 'node:path'
import type { ChangeWatcher } from './change-journal'
import { mappedKeysUnder, writableMappings, type WritableMappings } from './mapped-files'
import { os } from '../store/os-names'
import { keyBelow } from '../store/paths'
import type { RootRuntime } from '../store/roots'
import type { ScanContext } from './scanner'
import { sameEntry, type RootState, type State, type WalkDelta } from '../store/snapshot-deltas'

type Watchers = Map<string, ChangeWatcher>

export const JOURNAL_CHECK_EVERY = 25

/** The keys of a root that a journal's absolute paths name (what it reported). */
export function reportedKeys(rootAbs: string, absPaths: Iterable<string>): Set<string> {
  const keys = new Set<string>()
  for (const abs of absPaths) {
    const key = keyBelow(rootAbs, abs)
    if (key !== null) keys.add(key)
  }
  return keys
}

/**
 * Files (and links) a full walk found different from the record it started from, with no event
 * for them. Folders are left out: a folder's mtime follows its entries, whose events name the
 * entries. A file re-read only because it was racy keeps an equal entry and is not a change.
 * Deletions always make an event in the parent's watch, so only present paths are judged.
 */
export function journalMisses(prior: RootState | undefined, next: RootState, fresh: Iterable<string>, reported: Set<string>): string[] {
  if (!prior) return []
  const misses: string[] = []
  for (const key of fresh) {
    const now = next.get(key)
    if (!now || now.type === 'dir' || reported.has(key) || sameEntry(prior.get(key), now)) continue
    misses.push(key)
  }
  return misses
}

/**
 * The keys of a root that no watcher can vouch for: files with more than one name (as the captures
 * found them) and files some process maps writable (now or at the last capture), minus what the
 * root's rules exclude.
 */
function unwatchedKeys(root: RootRuntime, w: ChangeWatcher | undefined, mapped: WritableMappings): string[] {
  const rules = root.rules()
  const out = w ? [...w.linked] : []
  for (const key of mappedKeysUnder(mapped, root.real)) if (!rules.excludedDeep(key, false)) out.push(key)
  return out
}

/**
 * A capture's fields for a root that keep the files no journal can vouch for re-read (rehash: the
 * mapped ones) and that feed the root's journal (linked, recent); `linked`: a fresh set for a walk.
 */
export function journalScanFields(root: RootRuntime, w: ChangeWatcher | undefined, mapped: WritableMappings, ctimeMarginMs: number, linked?: Set<string>): Partial<ScanContext> {
  const keys = new Set(mappedKeysUnder(mapped, root.real))
  const rehash = keys.size || mapped.inodes.size ? (key: string, ino: number) => keys.has(key) || mapped.inodes.has(ino) : undefined
  if (!w) return { rehash }
  return { rehash, linked: linked ?? w.linked, recent: [], recentSince: w.deliveredBefore - ctimeMarginMs }
}

/** After a capture of a root: its journal gets the files with several names and the paths to look at again. */
export function tellJournal(w: ChangeWatcher | undefined, ctx: ScanContext): void {
  if (!w) return
  if (ctx.linked) w.linked = ctx.linked
  if (ctx.recent) w.recheck(ctx.recent)
}

/**
 * The paths to re-read when every non-shared root has a healthy watcher with a baseline, or
 * null (full scan) on any doubt: a barrier that fails, a folder created or deleted, a changed
 * .gitignore. Excluded paths are dropped with the same rules a walk applies. The files no watcher
 * can vouch for are added (unwatchedKeys).
 */
export async function watchedKeys(roots: RootRuntime[], watchers: Watchers, head: State, mapping: Promise<WritableMappings>): Promise<Map<string, Set<string>> | null> {
  const out = new Map<string, Set<string>>()
  for (const root of roots) {
    if (root.shared) continue
    const w = watchers.get(root.id)
    if (!(await trustedNow(w))) return null
    const dirty = w!.take()
    if (!dirty) return null
    const rules = root.rules()
    const prior = head.get(root.id)
    const keys = new Set<string>()
    for (const abs of dirty) {
      const key = keyBelow(root.abs, abs)
      if (key === null) continue
      if (path.basename(abs) === '.gitignore') return null
      let st: fs.Stats | null = null
      try {
        st = fs.lstatSync(os(abs))
      } catch {
        /* deleted */
      }
      const was = prior?.get(key)
      if (st?.isDirectory() ? was?.type !== 'dir' : was?.type === 'dir') return null
      if (rules.excludedDeep(key, st?.isDirectory() ?? false)) continue
      keys.add(key)
    }
    for (const key of unwatchedKeys(root, w, await mapping)) keys.add(key)
    out.set(root.id, keys)
  }
  return out
}

/** A journal to go by now: healthy, with a baseline, every change before this call delivered, no folder made since. */
async function trustedNow(w: ChangeWatcher | undefined): Promise<boolean> {
  return w !== undefined && w.healthy && w.baseline && (await w.barrier()) && !w.dirCreated
}

/**
 * After a checking walk (and its baseline barrier): a journal that missed a change the walk found
 * is given up for good. Returns the capture's warnings.
 */
export function judgeJournals(
  reported: Map<string, Set<string>>,
  rootById: Map<string, RootRuntime>,
  watchers: Watchers,
  head: State | null,
  next: State,
  walked: Map<string, WalkDelta>,
): string[] {
  const warnings: string[] = []
  for (const [rootId, seen] of reported) {
    const w = watchers.get(rootId)!
    // A folder created meanwhile has no watch: what changed in it says nothing of the journal.
    if (!w.baseline) continue
    const root = rootById.get(rootId)!
    for (const key of reportedKeys(root.abs, w.peek())) seen.add(key)
    const misses = journalMisses(head?.get(rootId), next.get(rootId)!, walked.get(rootId)!.fresh, seen)
    if (!misses.length) continue
    w.giveUp(`it never reported a change to ${misses.slice(0, 3).join(', ')}${misses.length > 3 ? ` and ${misses.length - 3} more` : ''}`)
    warnings.push(
      `the change journal of ${root.abs} missed changes (written through a memory mapping, or a hard link made from outside?): every capture of it walks in full from now on`,
    )
  }
  return warnings
}

/**
 * By root, the keys with an event since the head snapshot, for the roots whose journal is trusted
 * now (the others are absent: their paths are looked at), with the files no journal is asked to see.
 * For a plan's preview (a key is unchanged since the head snapshot when neither it nor a folder above
 * it is in its root's set): the events are only peeked at, the next capture still needs them; the
 * caller holds the lock, so this barrier never runs beside a capture's. `take`: before a checking
 * walk, which the events are then judged against (judgeJournals).
 */
export async function journalSinceHead(
  roots: RootRuntime[],
  watchers: Watchers,
  mapped: WritableMappings | Promise<WritableMappings> = writableMappings(),
  take = false,
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>()
  for (const root of roots) {
    const w = root.shared ? undefined : watchers.get(root.id)
    if (!(await trustedNow(w))) continue
    const dirty = take ? w!.take() : w!.peek()
    if (!dirty) continue
    const keys = reportedKeys(root.abs, dirty)
    for (const key of unwatchedKeys(root, w, await mapped)) keys.add(key)
    out.set(root.id, keys)
  }
  return out
}
