/**
 * read / write / list / glob / grep: the path relative to the project (full path on hover) and what
 * came back — the written content with line numbers, or the tool's output.
 */
import type { ToolPart } from '../../../api/types'
import { AnsiText } from './AnsiText'
import { filePathOf, str } from './tool-info'

const MAX_WRITE_LINES = 500

export function FileTool({ part, path }: { part: ToolPart; path: string }) {
  const { state } = part
  const full = filePathOf(part) ?? str(state.input?.path)
  const content = part.tool === 'write' ? (str(state.input?.content) ?? '') : undefined
  return (
    <div className="tool-file">
      {path && (
        <div className="tool-path" title={full} data-testid="tool-path">
          {path}
        </div>
      )}
      {content !== undefined ? (
        <WrittenContent text={content} />
      ) : (
        state.status === 'completed' && (state.output ? <AnsiText text={state.output} testId="tool-output" /> : <div className="muted">(empty)</div>)
      )}
    </div>
  )
}

function WrittenContent({ text }: { text: string }) {
  const lines = text.replace(/\n$/, '').split('\n')
  const shown = lines.slice(0, MAX_WRITE_LINES)
  return (
    <div className="diff-scroll">
      <table className="diff-table" aria-label="Written content" data-testid="written-content">
        <tbody>
          {shown.map((l, i) => (
            <tr key={i} className="diff-row">
              <td className="diff-no">{i + 1}</td>
              <td className="diff-code">
                <code>{l}</code>
              </td>
            </tr>
          ))}
          {lines.length > shown.length && (
            <tr className="diff-gap">
              <td colSpan={2}>… {lines.length - shown.length} more lines (Raw has all)</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  )
}
