/**
 * A tool waiting for the user's approval (opencode's "ask" permissions): the turn does not go on
 * until it is answered, so the question sits right above the composer.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { clientFor } from '../../api/client'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import { errorMessage, unwrap } from '../../../shared/unwrap'
import { describePermission, type PermissionRequest } from './permissions'

export function usePermissions() {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.permissions(scope),
    staleTime: Infinity,
    queryFn: async (): Promise<PermissionRequest[]> => unwrap('permission.list', await clientFor(scope.directory).permission.list()) as unknown as PermissionRequest[],
  })
}

export function PermissionPrompt({ sessionID }: { sessionID: string | undefined }) {
  const scope = useScope()
  const qc = useQueryClient()
  const permissions = usePermissions()
  const reply = useMutation({
    mutationFn: async (v: { id: string; reply: 'once' | 'always' | 'reject' }) =>
      unwrap('permission.reply', await clientFor(scope.directory).permission.reply({ requestID: v.id, reply: v.reply })),
    onSuccess: (_r, v) => qc.setQueryData<PermissionRequest[]>(queryKeys.permissions(scope), (list) => list?.filter((p) => p.id !== v.id)),
  })
  const pending = (permissions.data ?? []).filter((p) => p.sessionID === sessionID)
  if (pending.length === 0) return null
  const p = pending[0]!
  return (
    <div className="permission-prompt" role="alertdialog" aria-label="The agent asks for permission" data-testid="permission-prompt">
      <div>
        <strong>The agent asks to {describePermission(p)}</strong>
        {pending.length > 1 && <span className="muted"> · {pending.length - 1} more waiting</span>}
      </div>
      {p.always.length > 0 && <div className="muted">“Always” allows: {p.always.join(', ')}</div>}
      <div className="permission-buttons">
        <button
          type="button"
          className="button button-primary small"
          data-testid="permission-once"
          disabled={reply.isPending}
          onClick={() => reply.mutate({ id: p.id, reply: 'once' })}
        >
          Allow once
        </button>
        <button
          type="button"
          className="button button-secondary small"
          data-testid="permission-always"
          disabled={reply.isPending}
          onClick={() => reply.mutate({ id: p.id, reply: 'always' })}
        >
          Always allow
        </button>
        <button
          type="button"
          className="button button-secondary small"
          data-testid="permission-reject"
          disabled={reply.isPending}
          onClick={() => reply.mutate({ id: p.id, reply: 'reject' })}
        >
          Deny
        </button>
      </div>
      {reply.error && <div className="inline-error">{errorMessage(reply.error)}</div>}
    </div>
  )
}
