/**
 * A tool waiting for the user's approval (opencode's "ask" permissions): the turn does not go on
 * until it is answered, so the question sits right above the composer. A request whose turn was
 * stopped stays on screen, answered: the host rejected it before the stop (permissions-on-stop.ts)
 * and its buttons are gone for good, so nothing the stopped turn asked for can still run.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { clientFor } from '../../api/client'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import { errorMessage, unwrap } from '../../../shared/unwrap'
import { describePermission, visibleControls, type PermissionRequest } from './permissions'

export function usePermissions() {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.permissions(scope),
    staleTime: Infinity,
    queryFn: async (): Promise<PermissionRequest[]> => unwrap('permission.list', await clientFor(scope.directory).permission.list()) as unknown as PermissionRequest[],
  })
}

/** The requests a stop answered (set by useAbort, cleared by the session's next prompt or Dismiss). */
function useStoppedPermissions() {
  const scope = useScope()
  const qc = useQueryClient()
  const key = queryKeys.stoppedPermissions(scope)
  return useQuery({ queryKey: key, staleTime: Infinity, queryFn: () => qc.getQueryData<PermissionRequest[]>(key) ?? [] })
}

export function PermissionPrompt({ sessionID }: { sessionID: string | undefined }) {
  const scope = useScope()
  const qc = useQueryClient()
  const permissions = usePermissions()
  const stoppedList = useStoppedPermissions()
  const reply = useMutation({
    mutationFn: async (v: { id: string; reply: 'once' | 'always' | 'reject' }) =>
      unwrap('permission.reply', await clientFor(scope.directory).permission.reply({ requestID: v.id, reply: v.reply })),
    onSuccess: (_r, v) => qc.setQueryData<PermissionRequest[]>(queryKeys.permissions(scope), (list) => list?.filter((p) => p.id !== v.id)),
  })
  const stopped = (stoppedList.data ?? []).filter((p) => p.sessionID === sessionID)
  const pending = (permissions.data ?? []).filter((p) => p.sessionID === sessionID && !stopped.some((s) => s.id === p.id))
  const p = stopped[0] ?? pending[0]
  if (!p) return null
  const isStopped = stopped.length > 0
  const more = stopped.length + pending.length - 1
  const { action, target } = describePermission(p)
  const dismiss = () => qc.setQueryData<PermissionRequest[]>(queryKeys.stoppedPermissions(scope), (list) => list?.filter((s) => s.sessionID !== sessionID))
  const buttons: [string, string, 'once' | 'always' | 'reject', string][] = [
    ['permission-once', 'button-primary', 'once', 'Allow once'],
    ['permission-always', 'button-secondary', 'always', 'Always allow'],
    ['permission-reject', 'button-secondary', 'reject', 'Deny'],
  ]
  return (
    <div
      className={`permission-prompt${isStopped ? ' permission-stopped' : ''}`}
      role="alertdialog"
      aria-label={isStopped ? 'A permission of a stopped turn' : 'The agent asks for permission'}
      data-testid="permission-prompt"
      data-state={isStopped ? 'stopped' : 'waiting'}
    >
      <div>
        <span className="muted">{isStopped ? 'Asked by a stopped turn: ' : 'The agent asks: '}</span>
        <strong data-testid="permission-action">{action}</strong>
        {more > 0 && <span className="muted"> · {more} more</span>}
      </div>
      {target && (
        <code className="permission-target" data-testid="permission-target">
          {target}
        </code>
      )}
      {isStopped ? (
        <div className="muted" data-testid="permission-stopped">
          The turn was stopped: this request was denied and nothing it asked for will run.
        </div>
      ) : (
        p.always.length > 0 && <div className="muted">“Always” allows: {p.always.map(visibleControls).join(', ')}</div>
      )}
      <div className="permission-buttons">
        {buttons.map(([testId, style, answer, label]) => (
          <button
            key={testId}
            type="button"
            className={`button ${style} small`}
            data-testid={testId}
            disabled={isStopped || reply.isPending}
            onClick={() => {
              if (!isStopped) reply.mutate({ id: p.id, reply: answer })
            }}
          >
            {label}
          </button>
        ))}
        {isStopped && (
          <button type="button" className="button button-secondary small" data-testid="permission-dismiss" onClick={dismiss}>
            Dismiss
          </button>
        )}
      </div>
      {reply.error && <div className="inline-error">{errorMessage(reply.error)}</div>}
    </div>
  )
}
