/**
 * One file's diff from a checkpoint, unified or side by side, each line coloured by the file's
 * language (highlight.js on demand: plain until its grammar arrives, then coloured).
 */
import { useMemo, useSyncExternalStore } from 'react'
import { grammarName, grammarVersion, highlightCode, subscribeGrammars } from '../../ui/markdown/highlight'
import { diffRows, splitRows, type DiffRow } from './changes-logic'
import '../../styles/diff.css'

export type DiffLayout = 'unified' | 'split'

function languageOf(path: string): string | null {
  const base = path.split('/').pop() ?? ''
  const ext = base.includes('.') ? base.split('.').pop()! : base
  return grammarName(ext)
}

/** A line's highlighted HTML (highlight.js escapes the text), or the text itself. */
function Code({ text, language }: { text: string; language: string | null }) {
  const html = language ? highlightCode(text, language) : null
  return html === null ? <code>{text}</code> : <code dangerouslySetInnerHTML={{ __html: html }} />
}

const SIGN: Record<DiffRow['kind'], string> = { add: '+', del: '−', context: ' ', hunk: '' }

export function DiffView({ diff, path, layout }: { diff: string; path: string; layout: DiffLayout }) {
  // A grammar that arrives re-renders the lines coloured.
  useSyncExternalStore(subscribeGrammars, grammarVersion)
  const rows = useMemo(() => diffRows(diff), [diff])
  const language = languageOf(path)
  if (rows.length === 0) return <p className="muted">No text diff for this file.</p>
  if (layout === 'split') {
    return (
      <table className="diff-table diff-split" data-testid="diff-split" aria-label={`Changes to ${path}, side by side`}>
        {/* Fixed layout takes its widths from here (the first row may be a hunk spanning every column). */}
        <colgroup>
          <col className="diff-no-col" />
          <col />
          <col className="diff-no-col" />
          <col />
        </colgroup>
        <tbody>
          {splitRows(rows).map((r, i) =>
            r.kind === 'hunk' ? (
              <tr key={i} className="diff-hunk">
                <td colSpan={4}>{r.text}</td>
              </tr>
            ) : (
              <tr key={i}>
                <td className="diff-no">{r.left?.oldNo}</td>
                <td className={`diff-code ${r.left && r.left.kind !== 'context' ? 'diff-del' : ''}`}>{r.left && <Code text={r.left.text} language={language} />}</td>
                <td className="diff-no">{r.right?.newNo}</td>
                <td className={`diff-code ${r.right && r.right.kind !== 'context' ? 'diff-add' : ''}`}>{r.right && <Code text={r.right.text} language={language} />}</td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    )
  }
  return (
    <table className="diff-table" data-testid="diff-unified" aria-label={`Changes to ${path}`}>
      <colgroup>
        <col className="diff-no-col" />
        <col className="diff-no-col" />
        <col className="diff-sign-col" />
        <col />
      </colgroup>
      <tbody>
        {rows.map((r, i) =>
          r.kind === 'hunk' ? (
            <tr key={i} className="diff-hunk">
              <td colSpan={4}>{r.text}</td>
            </tr>
          ) : (
            <tr key={i} className={r.kind === 'add' ? 'diff-add' : r.kind === 'del' ? 'diff-del' : undefined}>
              <td className="diff-no">{r.oldNo}</td>
              <td className="diff-no">{r.newNo}</td>
              <td className="diff-sign" aria-label={r.kind === 'add' ? 'added' : r.kind === 'del' ? 'removed' : undefined}>
                {SIGN[r.kind]}
              </td>
              <td className="diff-code">
                <Code text={r.text} language={language} />
              </td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  )
}

/** "Show the changes" / "Hide the changes" beside a file's row; the file's name is said to assistive tech (it is beside the button on screen). */
export function ShowChangesToggle({ name, open, onToggle }: { name: string; open: boolean; onToggle(): void }) {
  return (
    <button type="button" className="text-button" aria-expanded={open} aria-label={open ? `Hide the changes to ${name}` : `Show the changes to ${name}`} onClick={onToggle}>
      {open ? 'Hide the changes' : 'Show the changes'}
    </button>
  )
}
