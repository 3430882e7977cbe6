/**
 * Line diffs for tool cards: a unified patch (what opencode's edit tool reports, with the file's
 * real line numbers) parsed into rows, or — when only the old and new text are known — computed
 * with a longest-common-subsequence table. Rows carry old/new line numbers for the gutter, and can
 * be paired side by side for the split view.
 */

export type DiffKind = 'context' | 'add' | 'del' | 'gap'

export interface DiffRow {
  kind: DiffKind
  text: string
  oldNo?: number
  newNo?: number
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/

/** Rows of a unified patch; headers (Index:, ===, ---, +++) are skipped, hunks are separated by a gap. */
export function parseUnifiedDiff(patch: string): DiffRow[] {
  const rows: DiffRow[] = []
  let oldNo = 0
  let newNo = 0
  let inHunk = false
  for (const line of patch.split('\n')) {
    const h = HUNK.exec(line)
    if (h) {
      if (rows.length) rows.push({ kind: 'gap', text: '' })
      oldNo = Number(h[1])
      newNo = Number(h[2])
      inHunk = true
      continue
    }
    if (!inHunk || line.startsWith('\\')) continue
    if (line.startsWith('+')) rows.push({ kind: 'add', text: line.slice(1), newNo: newNo++ })
    else if (line.startsWith('-')) rows.push({ kind: 'del', text: line.slice(1), oldNo: oldNo++ })
    else if (line.startsWith(' ') || line === '') rows.push({ kind: 'context', text: line.slice(1), oldNo: oldNo++, newNo: newNo++ })
    else inHunk = false // the next file's header
  }
  // A trailing empty "context" line is the patch's final newline, not a line of the file.
  while (rows.length && rows[rows.length - 1]!.kind === 'context' && rows[rows.length - 1]!.text === '') rows.pop()
  return rows
}

/** Over this many cells the LCS table is not built: the change is shown as all removed, all added. */
const MAX_CELLS = 2_000_000

function splitLines(s: string): string[] {
  if (s === '') return []
  const lines = s.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines
}

/** Every line of both texts as rows (numbers start at `startLine`, 1 unless the position is known). */
export function diffLines(before: string, after: string, startLine = 1): DiffRow[] {
  const a = splitLines(before)
  const b = splitLines(after)
  const rows: DiffRow[] = []
  let i = 0
  let j = 0
  // Common head and tail are matched directly, which keeps the table small for typical edits.
  while (i < a.length && i < b.length && a[i] === b[i]) {
    rows.push({ kind: 'context', text: a[i]!, oldNo: startLine + i, newNo: startLine + i })
    i++
    j++
  }
  let ta = a.length
  let tb = b.length
  while (ta > i && tb > j && a[ta - 1] === b[tb - 1]) {
    ta--
    tb--
  }
  const n = ta - i
  const m = tb - j
  if (n * m > MAX_CELLS) {
    for (let k = i; k < ta; k++) rows.push({ kind: 'del', text: a[k]!, oldNo: startLine + k })
    for (let k = j; k < tb; k++) rows.push({ kind: 'add', text: b[k]!, newNo: startLine + k })
  } else {
    // lcs[x][y]: the common length of a[i+x..ta) and b[j+y..tb).
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1))
    for (let x = n - 1; x >= 0; x--) for (let y = m - 1; y >= 0; y--) lcs[x]![y] = a[i + x] === b[j + y] ? lcs[x + 1]![y + 1]! + 1 : Math.max(lcs[x + 1]![y]!, lcs[x]![y + 1]!)
    let x = 0
    let y = 0
    while (x < n || y < m) {
      if (x < n && y < m && a[i + x] === b[j + y]) {
        rows.push({ kind: 'context', text: a[i + x]!, oldNo: startLine + i + x++, newNo: startLine + j + y++ })
      } else if (y < m && (x === n || lcs[x]![y + 1]! >= lcs[x + 1]![y]!)) {
        rows.push({ kind: 'add', text: b[j + y]!, newNo: startLine + j + y++ })
      } else {
        rows.push({ kind: 'del', text: a[i + x]!, oldNo: startLine + i + x++ })
      }
    }
    // Within a changed block, removals read better before additions.
    normalizeBlocks(rows)
  }
  for (let k = ta; k < a.length; k++) rows.push({ kind: 'context', text: a[k]!, oldNo: startLine + k, newNo: startLine + tb + (k - ta) })
  return rows
}

function normalizeBlocks(rows: DiffRow[]): void {
  let s = 0
  while (s < rows.length) {
    if (rows[s]!.kind === 'context') {
      s++
      continue
    }
    let e = s
    while (e < rows.length && rows[e]!.kind !== 'context') e++
    const block = rows.slice(s, e)
    rows.splice(s, e - s, ...block.filter((r) => r.kind === 'del'), ...block.filter((r) => r.kind === 'add'))
    s = e
  }
}

/** Keeps `context` unchanged lines around each change; longer unchanged runs become one gap row. */
export function foldContext(rows: DiffRow[], context = 3): DiffRow[] {
  const near = new Array<boolean>(rows.length).fill(false)
  rows.forEach((r, k) => {
    if (r.kind === 'context' || r.kind === 'gap') return
    for (let d = Math.max(0, k - context); d <= Math.min(rows.length - 1, k + context); d++) near[d] = true
  })
  const out: DiffRow[] = []
  rows.forEach((r, k) => {
    if (r.kind !== 'context' || near[k]) out.push(r)
    else if (out.length && out[out.length - 1]!.kind !== 'gap') out.push({ kind: 'gap', text: '' })
  })
  if (out.length && out[out.length - 1]!.kind === 'gap') out.pop()
  return out
}

/** Side by side: a removal and the addition at the same position of its block share a row. */
export function splitRows(rows: DiffRow[]): Array<{ left?: DiffRow; right?: DiffRow }> {
  const out: Array<{ left?: DiffRow; right?: DiffRow }> = []
  let k = 0
  while (k < rows.length) {
    const r = rows[k]!
    if (r.kind === 'context' || r.kind === 'gap') {
      out.push({ left: r, right: r })
      k++
      continue
    }
    const dels: DiffRow[] = []
    const adds: DiffRow[] = []
    while (k < rows.length && rows[k]!.kind === 'del') dels.push(rows[k++]!)
    while (k < rows.length && rows[k]!.kind === 'add') adds.push(rows[k++]!)
    for (let p = 0; p < Math.max(dels.length, adds.length); p++) out.push({ left: dels[p], right: adds[p] })
  }
  return out
}
