/**
 * A tool call as one line — what it did to what (the command, the file, the pattern), a short fact
 * (exit code, size, counts) and its state — that expands (click, Enter or Space) into a view made
 * for that tool, with the raw JSON behind "Raw". Memoized on the part object: the cache reducer
 * keeps an untouched part's identity, so text streaming beside a card never re-renders it.
 */
import { memo, useId, useMemo, useState, type ReactNode } from 'react'
import type { ToolPart } from '../../../api/types'
import { useToolPathRoots } from '../message-folder'
import { BashTool } from './BashTool'
import { DiffTool } from './DiffTool'
import { FallbackTool } from './FallbackTool'
import { FileTool } from './FileTool'
import { TodoTool } from './TodoTool'
import { filePathOf, relPath, str, summarize, type PathRoots } from './tool-info'
import '../../../styles/tools.css'

const STATUS_LABEL: Record<ToolPart['state']['status'], string> = {
  pending: 'pending',
  running: 'running',
  completed: 'done',
  error: 'failed',
}

/** How many times a card rendered (tests check that streaming text beside it does not). */
export const toolCardRenders = { count: 0 }

function bodyOf(part: ToolPart, directory: PathRoots): ReactNode {
  switch (part.tool) {
    case 'bash':
      return <BashTool part={part} />
    case 'edit':
    case 'multiedit':
    case 'patch':
    case 'apply_patch':
      return <DiffTool part={part} />
    case 'read':
    case 'write':
    case 'list':
    case 'glob':
    case 'grep':
      return <FileTool part={part} path={relPath(filePathOf(part) ?? str(part.state.input?.path), directory)} />
    case 'todowrite':
    case 'todoread':
      return <TodoTool part={part} />
    default:
      return <FallbackTool part={part} />
  }
}

function rawOf(part: ToolPart): string {
  const { status, ...rest } = part.state
  try {
    return JSON.stringify({ tool: part.tool, callID: part.callID, status, ...rest }, null, 2)
  } catch {
    return String(part.state)
  }
}

export const ToolCard = memo(function ToolCard({ part }: { part: ToolPart }) {
  toolCardRenders.count++
  const directory = useToolPathRoots()
  const [open, setOpen] = useState(false)
  const [raw, setRaw] = useState(false)
  const bodyId = useId()
  const { state } = part
  const summary = useMemo(() => summarize(part, directory), [part, directory])
  const running = state.status === 'pending' || state.status === 'running'
  const exit = summary.detail?.startsWith('exit ') ? Number(summary.detail.slice(5)) : undefined
  return (
    <div className="tool-call" data-testid="tool-call" data-tool={part.tool} data-status={state.status}>
      <button
        type="button"
        className="tool-head"
        aria-expanded={open}
        aria-controls={bodyId}
        data-testid="tool-toggle"
        title={state.status === 'error' ? state.error : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="tool-chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span className="tool-name">{summary.label}</span>
        <span className="tool-title" data-testid="tool-summary">
          {summary.subject}
        </span>
        {summary.detail && (
          <span className={`tool-detail${exit !== undefined && exit !== 0 ? ' tool-detail-bad' : ''}`} data-testid="tool-detail">
            {summary.detail}
          </span>
        )}
        <span className={`tool-status tool-status-${state.status}`}>
          {running && <span className="spinner" aria-hidden="true" />} {STATUS_LABEL[state.status]}
        </span>
      </button>
      {open && (
        <div className="tool-body" id={bodyId} data-testid="tool-body">
          {state.status === 'error' && (
            <pre className="tool-pre tool-error" role="alert">
              {state.error}
            </pre>
          )}
          {raw ? (
            <pre className="tool-pre" data-testid="tool-raw">
              {rawOf(part)}
            </pre>
          ) : (
            bodyOf(part, directory)
          )}
          {running && <div className="tool-label">Running…</div>}
          <div className="tool-toolbar tool-toolbar-end">
            <button type="button" className="text-button" aria-pressed={raw} data-testid="tool-raw-toggle" onClick={() => setRaw((r) => !r)}>
              Raw
            </button>
          </div>
        </div>
      )}
    </div>
  )
})
