/**
 * Settings › opencode server: what the connection runs with now, and whether opencode could use its
 * config. The fields above it are what will be used on the next reconnect; a command-line option
 * wins over them and a remote server ignores the config and home fields, so without this a saved
 * field could silently do nothing. A config file opencode cannot parse does not stop the server
 * (it starts, then answers every config call with ConfigJsonError), so the check asks opencode.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { getBridge } from '../../bridge'
import { hostKeys } from '../../api/query-keys'
import { useServerConfig } from '../../api/queries'
import { ApiError, describeBody, errorMessage } from '../../../shared/unwrap'
import type { ServerSetup } from '../../../shared/ipc-contract'

function ConfigCheck({ path }: { path: string | null }) {
  const config = useServerConfig()
  const qc = useQueryClient()
  // A fixed file is read again by a fresh server; the new connection refetches every query.
  const restart = useMutation({
    mutationFn: () => getBridge().invoke('server.restart', {}),
    onSuccess: (s) => qc.setQueryData(hostKeys.serverStatus, s),
  })
  if (config.isLoading) return <p className="muted small">Asking opencode for its config…</p>
  if (config.error) {
    const body = config.error instanceof ApiError ? (config.error.body as { name?: string; data?: { path?: string; message?: string } }) : undefined
    const unreadable = body?.name === 'ConfigJsonError'
    return (
      <div className="inline-error" role="alert" data-testid="config-error">
        {unreadable ? (
          <>
            opencode cannot read its config file {body?.data?.path ?? path ?? ''}: nothing in it is used (no models, no providers from it).
            <pre className="server-error">{(body?.data?.message ?? describeBody(body)).trim()}</pre>
            Fix the file, then restart the server.
          </>
        ) : (
          <>opencode did not give its config: {errorMessage(config.error)}</>
        )}
        <div>
          <button type="button" className="button button-secondary small" data-testid="config-restart" disabled={restart.isPending} onClick={() => restart.mutate()}>
            Restart the server
          </button>
          {restart.error && <span> {errorMessage(restart.error)}</span>}
        </div>
      </div>
    )
  }
  const model = config.data?.model
  return (
    <p className="muted small" data-testid="config-ok">
      opencode read its config{model ? `: default model ${model}` : ' (it sets no default model)'}.
    </p>
  )
}

export function ServerSetupNote({ setup }: { setup: ServerSetup | undefined }) {
  if (!setup) return null
  return (
    <div className="server-setup" data-testid="server-setup">
      {setup.kind === 'remote' ? (
        <p className="small" data-testid="server-setup-text">
          In use: the remote server {setup.remoteUrl}
          {setup.remoteFrom === 'command line' ? ' (given on the command line, which wins over the URL field)' : ''}. It has its own config and keys: the config file and “own
          setup” fields apply only to the server Retake starts.
        </p>
      ) : (
        <p className="small" data-testid="server-setup-text">
          In use: the server Retake starts, with{' '}
          {setup.configPath ? (
            <>
              the config file <code>{setup.configPath}</code>
              {setup.configFrom === 'command line' ? ' (given on the command line, which wins over the config field)' : ''}
            </>
          ) : (
            'no extra config file'
          )}{' '}
          and {setup.home === 'user' ? 'your own opencode setup (your home folder)' : 'Retake’s separate opencode setup (in its data folder)'}.
        </p>
      )}
      <ConfigCheck path={setup.configPath} />
    </div>
  )
}
