/** The agent for the next prompt (primary agents only; subagents are called by agents, not people). */
import type { Agent } from '../../api/types'

export function selectableAgents(agents: Agent[]): Agent[] {
  return agents.filter((a) => a.mode !== 'subagent' && !a.hidden)
}

export function AgentPicker({ agents, value, onChange, loading }: { agents: Agent[]; value: string; onChange(agent: string): void; loading: boolean }) {
  const list = selectableAgents(agents)
  return (
    <label className="picker">
      <span className="picker-label">Agent</span>
      <select data-testid="agent-picker" aria-label="Agent" value={value} disabled={loading || list.length === 0} onChange={(e) => onChange(e.target.value)}>
        {!list.some((a) => a.name === value) && <option value={value}>{value}</option>}
        {list.map((a) => (
          <option key={a.name} value={a.name} title={a.description}>
            {a.name}
          </option>
        ))}
      </select>
    </label>
  )
}
