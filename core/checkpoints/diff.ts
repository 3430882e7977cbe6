// Line diffs for the UI: a unified diff (Myers' O(ND) algorithm) and +/- line counts. Binary
// content (a NUL byte in the first 8 KB) gets no diff but is still listed as a change.
// Memory is what bounds a diff on the main process: lines both sides share at the start and the
// end are set aside first (an edit in a large file leaves little in between), and the search keeps,
// per edit step d, only the 2d+1 diagonals it reached — 4·D² bytes in all, D capped at MAX_EDIT
// (64 MB at worst, where the old full-width trace took gigabytes). Past the cap: counts, no diff.
// Time is what bounds it on the host's main thread (a 205 KB rewrite is ~0.4 s of search): inside
// `withDiffBudget` a diff that runs past the budget gives up ("deferred") and diff-worker.ts makes
// it on a worker thread instead.
const MAX_DIFF_BYTES = 8 << 20
const MAX_EDIT = 4_000

export function isBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 8192)
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true
  return false
}

export interface LineDiff {
  added: number
  removed: number
  /** Unified diff; absent past the edit cap (counts of the changed middle) or when deferred. */
  text?: string
  /** The deadline passed before the search ended: nothing was decided, make it elsewhere. */
  deferred?: true
}

/**
 * The whole diff of two texts, self-contained on purpose: diff-worker.ts runs this function's own
 * source on a worker thread (nothing to bundle or ship), so it may use nothing outside its body but
 * globals. `deadline` is a performance.now() value (Infinity: none).
 */
export function lineDiff(aText: string, bText: string, fromName: string, toName: string, maxEdit: number, deadline: number): LineDiff {
  const split = (t: string): string[] => {
    if (t === '') return []
    const ls = t.split('\n')
    if (ls[ls.length - 1] === '') ls.pop()
    return ls
  }
  // A spent budget defers even small diffs: thousands of them (an install's files) add up.
  if (deadline !== Infinity && performance.now() > deadline) return { added: 0, removed: 0, deferred: true }
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
  const max = Math.min(n + m, maxEdit)
  const off = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d] holds the diagonals -d..d as they were before step d (index k + d).
  const trace: Int32Array[] = []
  let dEnd = -1
  search: for (let d = 0; d <= max; d++) {
    // The clock is read every 16 steps: a step costs at most a pass over the lines.
    if ((d & 15) === 15 && performance.now() > deadline) return { added: m, removed: n, deferred: true }
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
  /** Given up past the budget of `withDiffBudget` (no text): make it with diffOffThread. */
  deferred?: true
}

/** performance.now() past which a diff made on this thread gives up; Infinity outside a budget. */
let deadline = Infinity

/**
 * Run `fn` (synchronous) with every diffBuffers call in it sharing `ms` of diff search: the plan
 * of a turn with many large files blocks the thread for that long at most, not that long per file.
 */
export function withDiffBudget<T>(ms: number, fn: () => T): T {
  const outer = deadline
  deadline = Math.min(outer, performance.now() + ms)
  try {
    return fn()
  } finally {
    deadline = outer
  }
}

/** What a diff of `from` → `to` needs decided before any search (null: search it). */
export function diffPrecheck(from: Uint8Array | null, to: Uint8Array | null, a: () => number, b: () => number): DiffResult | null {
  if ((from && isBinary(from)) || (to && isBinary(to))) return { binary: true, added: 0, removed: 0 }
  if ((from?.length ?? 0) > MAX_DIFF_BYTES || (to?.length ?? 0) > MAX_DIFF_BYTES) return { binary: false, added: b(), removed: a() }
  return null
}

export const diffNames = (from: unknown, to: unknown, label: string): [string, string] => [from ? `a/${label}` : '/dev/null', to ? `b/${label}` : '/dev/null']
export const MAX_EDIT_LINES = MAX_EDIT

/**
 * Inside a budget, inputs this large are deferred before any work: decoding and splitting 1 MB and
 * setting its shared lines aside is ~40 ms of linear work the deadline cannot interrupt.
 */
const BUDGET_BYTES = 128 * 1024

/** Diff `from` → `to` (either may be null for an absent file) on this thread. */
export function diffBuffers(from: Uint8Array | null, to: Uint8Array | null, label: string): DiffResult {
  const bytes = (from?.length ?? 0) + (to?.length ?? 0)
  if (deadline !== Infinity && bytes > BUDGET_BYTES && !((from && isBinary(from)) || (to && isBinary(to)))) return { binary: false, added: 0, removed: 0, deferred: true }
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
  const d = lineDiff(aText, bText, ...diffNames(from, to, label), MAX_EDIT, deadline)
  if (d.deferred) return { binary: false, added: d.added, removed: d.removed, deferred: true }
  return { binary: false, added: d.added, removed: d.removed, ...(d.text !== undefined ? { text: d.text } : {}) }
}
