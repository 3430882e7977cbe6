// Line diffs for the UI: a unified diff (Myers' O(ND) algorithm) and +/- line counts. Binary
// content (a NUL byte in the first 8 KB) gets no diff but is still listed as a change.
// Memory is what bounds a diff on the main process: lines both sides share at the start and the
// end are set aside first (an edit in a large file leaves little in between), and the search keeps,
// per edit step d, only the 2d+1 diagonals it reached — 4·D² bytes in all, D capped at MAX_EDIT
// (64 MB at worst, where the old full-width trace took gigabytes). Past the cap: counts, no diff.
const MAX_DIFF_BYTES = 8 << 20
const MAX_EDIT = 4_000

export function isBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 8192)
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true
  return false
}

function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

type Op = { t: ' ' | '-' | '+'; line: string }

/**
 * Shortest edit script a → b; when it needs more than MAX_EDIT insertions and deletions, only the
 * line counts of the part between the shared start and end (an upper bound of the real ones).
 */
function editScript(a: string[], b: string[]): Op[] | { added: number; removed: number } {
  let pre = 0
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++
  let suf = 0
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++
  const mid = myers(a.slice(pre, a.length - suf), b.slice(pre, b.length - suf))
  if (!mid) return { added: b.length - pre - suf, removed: a.length - pre - suf }
  const same = (lines: string[]): Op[] => lines.map((line) => ({ t: ' ', line }))
  return [...same(a.slice(0, pre)), ...mid, ...same(a.slice(a.length - suf))]
}

function myers(a: string[], b: string[]): Op[] | null {
  const n = a.length
  const m = b.length
  const max = Math.min(n + m, MAX_EDIT)
  const off = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d] holds the diagonals -d..d as they were before step d (index k + d).
  const trace: Int32Array[] = []
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(off - d, off + d + 1))
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[off + k] = x
      if (x >= n && y >= m) return backtrack(trace, a, b, d)
    }
  }
  return null
}

function backtrack(trace: Int32Array[], a: string[], b: string[], dEnd: number): Op[] {
  const ops: Op[] = []
  let x = a.length
  let y = b.length
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!
    const at = (k: number) => v[k + d]!
    const k = x - y
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
    const prevX = at(prevK)
    const prevY = prevX - prevK
    while (x > prevX && y > prevY) ops.push({ t: ' ', line: a[--x]! }), y--
    if (x === prevX) ops.push({ t: '+', line: b[--y]! })
    else ops.push({ t: '-', line: a[--x]! })
  }
  while (x > 0 && y > 0) ops.push({ t: ' ', line: a[--x]! }), y--
  return ops.reverse()
}

export interface DiffResult {
  binary: boolean
  added: number
  removed: number
  /** Unified diff text; undefined for binary or oversized content. */
  text?: string
}

/** Diff `from` → `to` (either may be null for an absent file). */
export function diffBuffers(from: Uint8Array | null, to: Uint8Array | null, label: string): DiffResult {
  if ((from && isBinary(from)) || (to && isBinary(to))) return { binary: true, added: 0, removed: 0 }
  const a = splitLines(from ? Buffer.from(from).toString('utf8') : '')
  const b = splitLines(to ? Buffer.from(to).toString('utf8') : '')
  const big = (from?.length ?? 0) > MAX_DIFF_BYTES || (to?.length ?? 0) > MAX_DIFF_BYTES
  const ops = big ? { added: b.length, removed: a.length } : editScript(a, b)
  if (!Array.isArray(ops)) return { binary: false, ...ops }
  let added = 0
  let removed = 0
  for (const o of ops) if (o.t === '+') added++
  else if (o.t === '-') removed++
  return { binary: false, added, removed, text: added + removed ? unified(ops, from ? `a/${label}` : '/dev/null', to ? `b/${label}` : '/dev/null') : '' }
}

function unified(ops: Op[], fromName: string, toName: string, ctx = 3): string {
  const out = [`--- ${fromName}`, `+++ ${toName}`]
  let i = 0
  let aLine = 1
  let bLine = 1
  while (i < ops.length) {
    if (ops[i]!.t === ' ') {
      i++, aLine++, bLine++
      continue
    }
    // A hunk: back up `ctx` lines, extend while changes are within 2*ctx of each other.
    const start = Math.max(0, i - ctx)
    let end = i
    let lastChange = i
    while (end < ops.length && end - lastChange <= 2 * ctx) {
      if (ops[end]!.t !== ' ') lastChange = end
      end++
    }
    end = Math.min(ops.length, lastChange + ctx + 1)
    const back = i - start
    const aStart = aLine - back
    const bStart = bLine - back
    let aCount = 0
    let bCount = 0
    const body: string[] = []
    for (let j = start; j < end; j++) {
      const o = ops[j]!
      body.push(o.t + o.line)
      if (o.t !== '+') aCount++
      if (o.t !== '-') bCount++
    }
    out.push(`@@ -${aCount ? aStart : aStart - 1},${aCount} +${bCount ? bStart : bStart - 1},${bCount} @@`, ...body)
    for (let j = i; j < end; j++) {
      if (ops[j]!.t !== '+') aLine++
      if (ops[j]!.t !== '-') bLine++
    }
    i = end
  }
  return out.join('\n') + '\n'
}
