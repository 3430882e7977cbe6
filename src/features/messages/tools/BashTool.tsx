/** bash: the command, its exit code, and its output with the terminal's colours. */
import type { ToolPart } from '../../../api/types'
import { AnsiText } from './AnsiText'
import { meta, num, str } from './tool-info'

export function BashTool({ part }: { part: ToolPart }) {
  const { state } = part
  const m = meta(state)
  const command = str(state.input?.command) ?? ''
  const description = str(state.input?.description) ?? str(m.description)
  const exit = num(m.exit)
  // opencode streams the output into the running call's metadata, then puts the whole in `output`.
  const output = state.status === 'completed' ? state.output : (str(m.output) ?? '')
  return (
    <div className="tool-bash">
      {description && <div className="tool-description">{description}</div>}
      <pre className="tool-pre tool-command" data-testid="bash-command">
        <span className="tool-prompt" aria-hidden="true">
          ${' '}
        </span>
        {command}
      </pre>
      {exit !== undefined && (
        <div className={`tool-exit ${exit === 0 ? 'tool-exit-ok' : 'tool-exit-fail'}`} data-testid="bash-exit">
          exit code {exit}
        </div>
      )}
      {output ? <AnsiText text={output} testId="bash-output" /> : state.status === 'completed' && <div className="muted">(no output)</div>}
    </div>
  )
}
