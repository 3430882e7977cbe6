/** A tool call in one line (tool, title, status); input and output expand on demand. */
import { memo, useState } from 'react'
import type { ToolPart } from '../api/types'

const STATUS_LABEL: Record<ToolPart['state']['status'], string> = {
  pending: 'pending',
  running: 'running',
  completed: 'done',
  error: 'failed',
}

function pretty(value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value, null, 2)
  } catch {
    return String(value)
  }
}

export const ToolCall = memo(function ToolCall({ part }: { part: ToolPart }) {
  const [open, setOpen] = useState(false)
  const { state } = part
  const title = 'title' in state && state.title ? state.title : ''
  const hasInput = state.input && Object.keys(state.input).length > 0
  return (
    <div className="tool-call" data-testid="tool-call" data-tool={part.tool} data-status={state.status}>
      <button
        type="button"
        className="tool-head"
        aria-expanded={open}
        data-testid="tool-toggle"
        onClick={() => setOpen((o) => !o)}
      >
        <span className="tool-chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span className="tool-name">{part.tool}</span>
        {title && <span className="tool-title">{title}</span>}
        <span className={`tool-status tool-status-${state.status}`}>{STATUS_LABEL[state.status]}</span>
      </button>
      {open && (
        <div className="tool-body" data-testid="tool-body">
          {hasInput && (
            <>
              <div className="tool-label">Input</div>
              <pre className="tool-pre">{pretty(state.input)}</pre>
            </>
          )}
          {state.status === 'completed' && (
            <>
              <div className="tool-label">Output</div>
              <pre className="tool-pre">{state.output || '(empty)'}</pre>
            </>
          )}
          {state.status === 'error' && (
            <>
              <div className="tool-label">Error</div>
              <pre className="tool-pre tool-error">{state.error}</pre>
            </>
          )}
          {(state.status === 'pending' || state.status === 'running') && <div className="tool-label">Running…</div>}
        </div>
      )}
    </div>
  )
})
