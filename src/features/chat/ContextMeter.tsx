/** The session header's glance at the context window and the cost (context-usage.ts). */
import { contextUsage, formatCost, formatTokens } from './context-usage'
import type { MessageWithParts, Provider } from '../../api/types'

export function ContextMeter({ messages, providers }: { messages: readonly MessageWithParts[]; providers: readonly Provider[] }) {
  const u = contextUsage(messages, providers)
  if (u.used === 0 && u.sessionCost === 0) return null
  const percent = u.limit ? Math.min(100, Math.round((u.used / u.limit) * 100)) : undefined
  const words = [
    `Context: ${u.used.toLocaleString('en-US')} tokens${u.limit ? ` of ${u.limit.toLocaleString('en-US')} (${percent}%)` : ''}`,
    u.sessionCost > 0 ? `Cost: ${formatCost(u.sessionCost)} this session, ${formatCost(u.turnCost)} the last turn` : 'No cost reported',
  ].join('. ')
  return (
    <div className="context-meter" role="group" aria-label={words} title={words} data-testid="context-meter">
      {percent !== undefined && (
        <span className="context-bar" aria-hidden="true">
          <span className="context-fill" data-level={percent >= 90 ? 'full' : percent >= 70 ? 'high' : 'ok'} style={{ width: `${percent}%` }} />
        </span>
      )}
      <span data-testid="context-tokens">
        {formatTokens(u.used)}
        {u.limit ? ` / ${formatTokens(u.limit)}` : ''}
      </span>
      {u.sessionCost > 0 && <span data-testid="session-cost">{formatCost(u.sessionCost)}</span>}
    </div>
  )
}
