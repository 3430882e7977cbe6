/**
 * The questions an auth method asks before it starts (opencode's `prompts`: a GitHub Enterprise URL,
 * a Cloudflare account id, …). A prompt with `when` appears only once the answer it depends on fits.
 */
import { visiblePrompts, withSelectDefaults, type AuthPrompt } from './provider-auth'

export function AuthPrompts({ prompts, values, onChange }: { prompts: AuthPrompt[] | undefined; values: Record<string, string>; onChange(values: Record<string, string>): void }) {
  // Selects show their first option; `when` conditions are checked against what is shown.
  const shown = withSelectDefaults(prompts, values)
  const visible = visiblePrompts(prompts, shown)
  if (visible.length === 0) return null
  return (
    <div className="auth-prompts">
      {visible.map((p) => (
        <label key={p.key} className="auth-prompt">
          <span>{p.message}</span>
          {p.type === 'select' ? (
            <select data-testid={`auth-prompt-${p.key}`} value={shown[p.key] ?? ''} onChange={(e) => onChange({ ...shown, [p.key]: e.target.value })}>
              {p.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                  {o.hint ? ` (${o.hint})` : ''}
                </option>
              ))}
            </select>
          ) : (
            <input
              type="text"
              data-testid={`auth-prompt-${p.key}`}
              placeholder={p.placeholder}
              autoComplete="off"
              value={values[p.key] ?? ''}
              onChange={(e) => onChange({ ...shown, [p.key]: e.target.value })}
            />
          )}
        </label>
      ))}
    </div>
  )
}
