// Line diffs for the UI: a unified diff (jsdiff's Myers diff) and +/- line counts. Binary content
// (a NUL byte in the first 8 KB) gets no diff but is still listed as a change.
// Diffs are made on the engine's thread, so time and memory are bounded by sizes, not by a clock
// (jsdiff's `timeout` would make the same files preview differently on a loaded machine): its
// `maxEditLength` ends the search after D edits, with at most 2D+1 paths kept, in O((N+M)·D + D²)
// time for N+M lines; D is capped lower when N+M is large so that (N+M)·D stays under MAX_SEARCH
// (a few edits in a 1 MB file are diffed; a 1 MB rewrite gets counts). Past a cap: counts, no diff.
import { formatPatch, OMIT_HEADERS, structuredPatch } from 'diff'

/** A side larger than this gets line counts, never a diff. */
export const MAX_DIFF_BYTES = 2 << 20
const MAX_EDIT = 2_000
const MAX_SEARCH = 20_000_000

export function isBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 8192)
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true
  return false
}

export interface DiffResult {
  binary: boolean
  added: number
  removed: number
  /** Unified diff text; undefined for binary or oversized content. */
  text?: string
}

const splitLines = (t: string): string[] => (t === '' ? [] : t.replace(/\n$/, '').split('\n'))

/** Diff `from` → `to` (either may be null for an absent file) on this thread. */
export function diffBuffers(from: Uint8Array | null, to: Uint8Array | null, label: string): DiffResult {
  if ((from && isBinary(from)) || (to && isBinary(to))) return { binary: true, added: 0, removed: 0 }
  const aText = from ? Buffer.from(from).toString('utf8') : ''
  const bText = to ? Buffer.from(to).toString('utf8') : ''
  // Past a cap, the counts are those of the lines between what both sides share at either end.
  const a = splitLines(aText)
  const b = splitLines(bText)
  let pre = 0
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++
  let suf = 0
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++
  const counts = { binary: false, added: b.length - pre - suf, removed: a.length - pre - suf }
  if ((from?.length ?? 0) > MAX_DIFF_BYTES || (to?.length ?? 0) > MAX_DIFF_BYTES) return counts
  const maxEditLength = Math.min(MAX_EDIT, Math.floor(MAX_SEARCH / Math.max(1, a.length + b.length)))
  const patch = structuredPatch('a', 'b', aText, bText, undefined, undefined, { context: 3, maxEditLength })
  if (!patch) return counts
  if (patch.hunks.length === 0) return { binary: false, added: 0, removed: 0, text: '' }
  let added = 0
  let removed = 0
  for (const h of patch.hunks)
    for (const l of h.lines)
      if (l[0] === '+') added++
      else if (l[0] === '-') removed++
  // Names as they are (jsdiff would C-quote a non-ASCII one).
  const head = `--- ${from ? `a/${label}` : '/dev/null'}\n+++ ${to ? `b/${label}` : '/dev/null'}\n`
  return { binary: false, added, removed, text: head + formatPatch(patch, OMIT_HEADERS) }
}
