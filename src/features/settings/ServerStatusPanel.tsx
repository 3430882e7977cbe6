/** The host's opencode server when it is not ready: starting, restarting (attempt n), or failed + Restart. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { getBridge } from '../../bridge'
import { hostKeys } from '../../api/query-keys'
import { errorMessage } from '../../../shared/unwrap'
import type { ServerStatus } from '../../../shared/ipc-contract'

export function serverStatusText(s: ServerStatus | undefined): string {
  if (!s) return 'Connecting to Retake…'
  switch (s.state) {
    case 'starting':
      return 'Starting the opencode server…'
    case 'ready':
      return s.version ? `opencode ${s.version}` : 'Server ready'
    case 'restarting':
      return `The opencode server stopped; restarting${s.attempt ? ` (attempt ${s.attempt})` : ''}…`
    case 'failed':
      return 'The opencode server failed.'
    case 'stopped':
      return 'The opencode server is stopped.'
  }
}

export function ServerStatusPanel({ status }: { status: ServerStatus | undefined }) {
  const qc = useQueryClient()
  const restart = useMutation({
    mutationFn: () => getBridge().invoke('server.restart', {}),
    onSuccess: (s) => qc.setQueryData(hostKeys.serverStatus, s),
  })
  const canRestart = status?.state === 'failed' || status?.state === 'stopped'
  return (
    <div className="server-panel" data-testid="server-status" data-state={status?.state ?? 'unknown'} role="status">
      {!canRestart && <div className="spinner" aria-hidden="true" />}
      <div className="server-text">{serverStatusText(status)}</div>
      {status?.error && <pre className="server-error">{status.error}</pre>}
      {canRestart && (
        <button type="button" className="button button-primary" data-testid="server-restart" disabled={restart.isPending} onClick={() => restart.mutate()}>
          Restart server
        </button>
      )}
      {restart.error && <div className="inline-error">{errorMessage(restart.error)}</div>}
    </div>
  )
}
