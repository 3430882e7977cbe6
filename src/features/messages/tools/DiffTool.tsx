/**
 * edit / multiedit / patch: the change as a diff with the file's line numbers (from opencode's
 * unified patch when it reports one, else computed from the old and new strings), unified or side
 * by side. Lines are highlighted one by one with highlight.js (already bundled for markdown),
 * which escapes the code; big diffs stay plain to keep expanding cheap.
 */
import hljs from 'highlight.js/lib/common'
import { useMemo, useState } from 'react'
import type { ToolPart } from '../../../api/types'
import { diffLines, foldContext, parseUnifiedDiff, splitRows, type DiffRow } from '../line-diff'
import { filePathOf, meta, str } from './tool-info'

const HIGHLIGHT_MAX_ROWS = 400

/** The rows a call's change is made of, whatever the tool reported. */
export function rowsOf(part: ToolPart): DiffRow[] {
  const { state } = part
  const input = state.input ?? {}
  const m = meta(state)
  const patch = str(m.diff)
  if (patch) return foldContext(parseUnifiedDiff(patch))
  if (part.tool === 'multiedit' && Array.isArray(input.edits)) {
    const rows: DiffRow[] = []
    for (const e of input.edits as Array<Record<string, unknown>>) {
      if (rows.length) rows.push({ kind: 'gap', text: '' })
      rows.push(...diffLines(str(e?.oldString) ?? '', str(e?.newString) ?? ''))
    }
    return rows
  }
  const patchText = str(input.patchText) ?? str(input.patch)
  if (patchText) {
    // A patch in a format that is not a unified diff: colour its +/- lines, no numbers.
    const parsed = parseUnifiedDiff(patchText)
    if (parsed.length) return foldContext(parsed)
    return patchText
      .split('\n')
      .map((l) => ({ kind: l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'context', text: l.startsWith('+') || l.startsWith('-') ? l.slice(1) : l }) as DiffRow)
  }
  return diffLines(str(input.oldString) ?? '', str(input.newString) ?? '')
}

function languageOf(path: string | undefined): string | undefined {
  const ext = path?.match(/\.([A-Za-z0-9]+)$/)?.[1]?.toLowerCase()
  return ext && hljs.getLanguage(ext) ? ext : undefined
}

function highlightLine(text: string, language: string | undefined): string | undefined {
  if (!language) return undefined
  try {
    return hljs.highlight(text, { language, ignoreIllegals: true }).value
  } catch {
    return undefined
  }
}

const SIGN: Record<DiffRow['kind'], string> = { add: '+', del: '−', context: ' ', gap: '' }

function Code({ row, html }: { row: DiffRow; html: string | undefined }) {
  // hljs output is escaped source with its own spans only; otherwise the text is a React text node.
  return html !== undefined ? <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} /> : <code>{row.text}</code>
}

export function DiffTool({ part }: { part: ToolPart }) {
  const [split, setSplit] = useState(false)
  const rows = useMemo(() => rowsOf(part), [part])
  const path = filePathOf(part)
  const html = useMemo(() => {
    const language = rows.length <= HIGHLIGHT_MAX_ROWS ? languageOf(path) : undefined
    return new Map(rows.map((r) => [r, r.kind === 'gap' ? undefined : highlightLine(r.text, language)]))
  }, [rows, path])
  if (rows.length === 0) return <div className="muted">No change to show.</div>
  return (
    <div className="tool-diff">
      <div className="tool-toolbar">
        <button type="button" className="text-button" aria-pressed={split} data-testid="diff-split-toggle" onClick={() => setSplit((s) => !s)}>
          {split ? 'Unified view' : 'Split view'}
        </button>
      </div>
      <div className="diff-scroll">
        <table className={`diff-table${split ? ' diff-split' : ''}`} data-testid="diff-table" aria-label={`Changes${path ? ` to ${path}` : ''}`}>
          <tbody>
            {split
              ? splitRows(rows).map(({ left, right }, i) =>
                  left?.kind === 'gap' ? (
                    <GapRow key={i} span={6} />
                  ) : (
                    <tr key={i}>
                      <Side row={left} side="old" html={left && html.get(left)} />
                      <Side row={right} side="new" html={right && html.get(right)} />
                    </tr>
                  ),
                )
              : rows.map((r, i) =>
                  r.kind === 'gap' ? (
                    <GapRow key={i} span={4} />
                  ) : (
                    <tr key={i} className={`diff-row diff-${r.kind}`} data-kind={r.kind}>
                      <td className="diff-no">{r.oldNo ?? ''}</td>
                      <td className="diff-no">{r.newNo ?? ''}</td>
                      <td className="diff-sign" aria-label={r.kind === 'add' ? 'added' : r.kind === 'del' ? 'removed' : undefined}>
                        {SIGN[r.kind]}
                      </td>
                      <td className="diff-code">
                        <Code row={r} html={html.get(r)} />
                      </td>
                    </tr>
                  ),
                )}
          </tbody>
        </table>
      </div>
    </div>
  )
}

function GapRow({ span }: { span: number }) {
  return (
    <tr className="diff-gap">
      <td colSpan={span}>⋯</td>
    </tr>
  )
}

function Side({ row, side, html }: { row: DiffRow | undefined; side: 'old' | 'new'; html: string | undefined }) {
  if (!row) return <td className="diff-empty" colSpan={3} />
  const no = side === 'old' ? row.oldNo : row.newNo
  return (
    <>
      <td className="diff-no">{no ?? ''}</td>
      <td className={`diff-sign diff-${row.kind}`}>{SIGN[row.kind]}</td>
      <td className={`diff-code diff-${row.kind}`} data-kind={row.kind}>
        <Code row={row} html={html} />
      </td>
    </>
  )
}
