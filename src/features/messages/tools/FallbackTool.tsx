/** Any other tool (task, webfetch, MCP tools …): its arguments as key/value lines and its output. */
import type { ToolPart } from '../../../api/types'
import { AnsiText } from './AnsiText'

function show(v: unknown): string {
  if (typeof v === 'string') return v
  try {
    return JSON.stringify(v, null, 2)
  } catch {
    return String(v)
  }
}

export function FallbackTool({ part }: { part: ToolPart }) {
  const { state } = part
  const entries = Object.entries(state.input ?? {})
  return (
    <div className="tool-fallback">
      {entries.length > 0 && (
        <dl className="tool-args" data-testid="tool-args">
          {entries.map(([k, v]) => (
            <div key={k} className="tool-arg">
              <dt>{k}</dt>
              <dd>{show(v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {state.status === 'completed' && (state.output ? <AnsiText text={state.output} testId="tool-output" /> : <div className="muted">(empty)</div>)}
    </div>
  )
}
