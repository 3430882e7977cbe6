// Line diffs for the UI: a unified diff (Myers' O(ND) algorithm) and +/- line counts. Binary
// content (a NUL byte in the first 8 KB) gets no diff but is still listed as a change.
// Diffs are made on the calling thread (the host's main thread), so memory and time are bounded by
// sizes, never by a clock: lines both sides share at the start and the end are set aside first (an
// edit in a large file leaves little in between); the search keeps, per edit step d, only the 2d+1
// diagonals it reached — 4·D² bytes in all, D capped at MAX_EDIT (16 MB at worst); and its time,
// O((N+M)·D + D²) for the N+M lines left in between, by capping D lower when N+M is large, so that
// (N+M)·D stays under MAX_SEARCH (a few edits in a 1 MB file are diffed; a 1 MB rewrite gets
// counts). Past a cap: counts, no diff.
const MAX_DIFF_BYTES = 2 << 20
const MAX_EDIT = 2_000
const MAX_SEARCH = 20_000_000

export function isBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 8192)
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true
  return false
}

export interface LineDiff {
  added: number
  removed: number
  /** Unified diff; absent past a cap (counts of the changed middle). */
  text?: string
}

/** The whole diff of two texts; past `maxEdit` edits (or fewer, see MAX_SEARCH), counts only. */
function lineDiff(aText: string, bText: string, fromName: string, toName: string, maxEdit: number): LineDiff {
  const split = (t: string): string[] => {
    if (t === '') return []
    const ls = t.split('\n')
    if (ls[ls.length - 1] === '') ls.pop()
    return ls
  }
  const a = split(aText)
  const b = split(bText)
  let pre = 0
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++
  let suf = 0
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++
  const am = a.slice(pre, a.length - suf)
  const bm = b.slice(pre, b.length - suf)
  const n = am.length
  const m = bm.length
  const max = Math.min(n + m, maxEdit, Math.floor(MAX_SEARCH / Math.max(1, n + m)))
  // One side empty in between (a new or deleted file, a block added or removed): nothing to search.
  if ((n === 0 || m === 0) && n + m <= max) return hunks(a, pre, suf, n === 0 ? bm.map((l) => '+' + l) : am.map((l) => '-' + l), fromName, toName)
  const off = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d] holds the diagonals -d..d as they were before step d (index k + d).
  const trace: Int32Array[] = []
  let dEnd = -1
  search: for (let d = 0; d <= max; d++) {
    trace.push(v.slice(off - d, off + d + 1))
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && am[x] === bm[y]) {
        x++
        y++
      }
      v[off + k] = x
      if (x >= n && y >= m) {
        dEnd = d
        break search
      }
    }
  }
  if (dEnd < 0) return { added: m, removed: n }
  // Back from the end through the kept diagonals: ' ', '-', '+' ops in reverse.
  const ops: string[] = []
  let x = n
  let y = m
  for (let d = dEnd; d > 0; d--) {
    const tv = trace[d]!
    const at = (k: number): number => tv[k + d]!
    const k = x - y
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
    const prevX = at(prevK)
    const prevY = prevX - prevK
    while (x > prevX && y > prevY) {
      ops.push(' ' + am[--x]!)
      y--
    }
    if (x === prevX) ops.push('+' + bm[--y]!)
    else ops.push('-' + am[--x]!)
  }
  while (x > 0 && y > 0) {
    ops.push(' ' + am[--x]!)
    y--
  }
  ops.reverse()
  return hunks(a, pre, suf, ops, fromName, toName)
}

/** The unified diff (hunks with 3 lines of context) of `a` with `ops` between its first `pre` and last `suf` lines. */
function hunks(a: string[], pre: number, suf: number, ops: string[], fromName: string, toName: string): LineDiff {
  const all = [...a.slice(0, pre).map((l) => ' ' + l), ...ops, ...a.slice(a.length - suf).map((l) => ' ' + l)]
  let added = 0
  let removed = 0
  for (const o of all)
    if (o[0] === '+') added++
    else if (o[0] === '-') removed++
  if (added + removed === 0) return { added, removed, text: '' }
  // Hunks with 3 lines of context, merged while changes are within 6 lines of each other.
  const ctx = 3
  const out = [`--- ${fromName}`, `+++ ${toName}`]
  let i = 0
  let aLine = 1
  let bLine = 1
  while (i < all.length) {
    if (all[i]![0] === ' ') {
      i++
      aLine++
      bLine++
      continue
    }
    const start = Math.max(0, i - ctx)
    let end = i
    let lastChange = i
    while (end < all.length && end - lastChange <= 2 * ctx) {
      if (all[end]![0] !== ' ') lastChange = end
      end++
    }
    end = Math.min(all.length, lastChange + ctx + 1)
    const aStart = aLine - (i - start)
    const bStart = bLine - (i - start)
    let aCount = 0
    let bCount = 0
    const body: string[] = []
    for (let j = start; j < end; j++) {
      body.push(all[j]!)
      if (all[j]![0] !== '+') aCount++
      if (all[j]![0] !== '-') bCount++
    }
    out.push(`@@ -${aCount ? aStart : aStart - 1},${aCount} +${bCount ? bStart : bStart - 1},${bCount} @@`, ...body)
    for (let j = i; j < end; j++) {
      if (all[j]![0] !== '+') aLine++
      if (all[j]![0] !== '-') bLine++
    }
    i = end
  }
  return { added, removed, text: out.join('\n') + '\n' }
}

export interface DiffResult {
  binary: boolean
  added: number
  removed: number
  /** Unified diff text; undefined for binary or oversized content. */
  text?: string
}

/** What a diff of `from` → `to` needs decided before any search (null: search it). */
function diffPrecheck(from: Uint8Array | null, to: Uint8Array | null, a: () => number, b: () => number): DiffResult | null {
  if ((from && isBinary(from)) || (to && isBinary(to))) return { binary: true, added: 0, removed: 0 }
  if ((from?.length ?? 0) > MAX_DIFF_BYTES || (to?.length ?? 0) > MAX_DIFF_BYTES) return { binary: false, added: b(), removed: a() }
  return null
}

const diffNames = (from: unknown, to: unknown, label: string): [string, string] => [from ? `a/${label}` : '/dev/null', to ? `b/${label}` : '/dev/null']

/** Diff `from` → `to` (either may be null for an absent file) on this thread. */
export function diffBuffers(from: Uint8Array | null, to: Uint8Array | null, label: string): DiffResult {
  const aText = from ? Buffer.from(from).toString('utf8') : ''
  const bText = to ? Buffer.from(to).toString('utf8') : ''
  const lines = (t: string) => (t === '' ? 0 : t.split('\n').length - (t.endsWith('\n') ? 1 : 0))
  const early = diffPrecheck(
    from,
    to,
    () => lines(aText),
    () => lines(bText),
  )
  if (early) return early
  const d = lineDiff(aText, bText, ...diffNames(from, to, label), MAX_EDIT)
  return { binary: false, added: d.added, removed: d.removed, ...(d.text !== undefined ? { text: d.text } : {}) }
}
