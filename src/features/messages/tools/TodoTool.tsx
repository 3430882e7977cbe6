/** todowrite: the agent's plan as a read-only checklist (done, in progress, to do, cancelled). */
import type { ToolPart } from '../../../api/types'
import { todosOf } from './tool-info'

const MARK: Record<string, string> = { completed: '✓', in_progress: '◐', cancelled: '✕', pending: '' }
const SAY: Record<string, string> = { completed: 'done', in_progress: 'in progress', cancelled: 'cancelled', pending: 'to do' }

export function TodoTool({ part }: { part: ToolPart }) {
  const todos = todosOf(part.state)
  if (!todos.length) return <div className="muted">No items.</div>
  return (
    <ul className="todo-list" aria-label="Todo list" data-testid="todo-list">
      {todos.map((t, i) => (
        <li key={i} className={`todo-item todo-${t.status}`} data-status={t.status}>
          <span
            role="checkbox"
            aria-checked={t.status === 'completed' ? true : t.status === 'in_progress' ? 'mixed' : false}
            aria-readonly="true"
            aria-label={`${t.content} (${SAY[t.status] ?? t.status})`}
            className="todo-box"
          >
            {MARK[t.status] ?? ''}
          </span>
          <span className="todo-text">{t.content}</span>
          {t.priority === 'high' && <span className="todo-priority">high</span>}
        </li>
      ))}
    </ul>
  )
}
