/**
 * Signing in to a provider with one of its OAuth methods. opencode makes the sign-in address; the
 * user sees it whole and opens it (desktop: the system browser through the host's link policy;
 * browser mode: a new tab with no opener). Then either opencode waits for the browser to come back
 * ("auto", device codes included: the code is shown with a copy button) or the user pastes the code
 * the provider's page shows ("code"). What opencode stores is applied like a saved key.
 */
import { useEffect, useRef, useState } from 'react'
import { getBridge } from '../../bridge'
import { useProviderSignIn } from './provider-auth-calls'
import { useProviderKeysWaiting } from './use-apply-provider-keys'
import { errorMessage } from '../../../shared/unwrap'
import { classifyLink } from '../chat/link-policy'
import { deviceCode, signInErrorMessage } from './provider-auth'
import { CopyButton } from '../../ui/CopyButton'

/** Opens the sign-in address outside Retake; resolves to an error text when that was not possible. */
async function openSignInPage(url: string): Promise<string | null> {
  const link = classifyLink(url, window.location.origin)
  if (link.kind !== 'external') return `Retake does not open this address (${link.reason}).`
  if (window.retakeHost) {
    try {
      const opened = await getBridge().invoke('shell.openExternal', { url: link.url })
      return opened ? null : 'The system browser could not be opened: copy the address and open it yourself.'
    } catch (err) {
      return `The system browser could not be opened (${errorMessage(err)}): copy the address and open it yourself.`
    }
  }
  // `noopener` makes window.open return null even when the tab opened, so there is nothing to check.
  window.open(link.url, '_blank', 'noopener,noreferrer')
  return null
}

export function ProviderSignIn({
  providerID,
  providerName,
  method,
  label,
  inputs,
}: {
  providerID: string
  providerName: string
  /** The method's index in the server's list. */
  method: number
  label: string
  /** The answers to the method's prompts, or what is still missing. */
  inputs: { ok: true; inputs: Record<string, string> } | { ok: false; missing: string }
}) {
  const { start, finish } = useProviderSignIn()
  const [code, setCode] = useState('')
  const [openError, setOpenError] = useState<string | null>(null)
  const [missing, setMissing] = useState<string | null>(null)
  const waiting = useProviderKeysWaiting()
  const abort = useRef<AbortController | null>(null)
  // Closing the dialog stops waiting for the browser (opencode's own listener times out by itself).
  useEffect(() => () => abort.current?.abort(), [])

  const auth = start.data
  const begin = () => {
    if (!inputs.ok) return setMissing(`Fill in: ${inputs.missing}`)
    setMissing(null)
    setOpenError(null)
    finish.reset()
    start.mutate(
      { providerID, method, inputs: inputs.inputs },
      {
        onSuccess: (a) => {
          // "auto": opencode answers the callback once the browser has come back to it.
          if (a.method !== 'auto') return
          abort.current = new AbortController()
          finish.mutate({ providerID, method, signal: abort.current.signal })
        },
      },
    )
  }
  const cancel = () => {
    abort.current?.abort()
    finish.reset()
    start.reset()
  }

  if (finish.isSuccess) {
    return (
      <div className="muted" data-testid="sign-in-done" role="status">
        Signed in to {providerName}. {waiting ? 'It applies as soon as the running turn ends.' : 'In use now, no restart needed.'}
      </div>
    )
  }

  const error = start.error ? signInErrorMessage('start', providerName, start.error) : finish.error ? signInErrorMessage('finish', providerName, finish.error) : null
  const device = auth ? deviceCode(auth.instructions) : null
  return (
    <div className="sign-in" data-testid="sign-in">
      {!auth || (auth.method === 'auto' && finish.isError) ? (
        <button type="button" className="button button-primary" data-testid="sign-in-start" disabled={start.isPending} onClick={begin}>
          {start.isPending ? 'Starting…' : auth ? 'Start again' : `Sign in: ${label}`}
        </button>
      ) : (
        <>
          {auth.instructions && (
            <p className="muted small" data-testid="sign-in-instructions">
              {auth.instructions}
            </p>
          )}
          {device && (
            <div className="sign-in-code-row">
              <span>Your code:</span>
              <code className="device-code" data-testid="device-code">
                {device}
              </code>
              <CopyButton text={() => device} label="Copy code" testId="device-code-copy" />
            </div>
          )}
          <p className="link-url" data-testid="sign-in-url">
            {auth.url}
          </p>
          <div className="sign-in-row">
            <button type="button" className="button" data-testid="sign-in-open" onClick={async () => setOpenError(await openSignInPage(auth.url))}>
              Open sign-in page
            </button>
            <CopyButton text={() => auth.url} label="Copy address" testId="sign-in-url-copy" />
            <button type="button" className="button button-secondary" data-testid="sign-in-cancel" onClick={cancel}>
              Cancel
            </button>
          </div>
          {auth.method === 'auto' && finish.isPending && (
            <p className="muted small" data-testid="sign-in-waiting" role="status">
              Waiting for you to finish in the browser…
            </p>
          )}
          {auth.method === 'code' && (
            <form
              className="sign-in-row"
              onSubmit={(e) => {
                e.preventDefault()
                // The code stays in the field whatever happens: a failed finish loses nothing.
                if (code.trim()) finish.mutate({ providerID, method, code: code.trim() })
              }}
            >
              <input
                type="text"
                aria-label="Code from the provider"
                data-testid="sign-in-code"
                placeholder="Paste the code here"
                autoComplete="off"
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
              <button type="submit" className="button button-primary" data-testid="sign-in-finish" disabled={!code.trim() || finish.isPending}>
                {finish.isPending ? 'Checking…' : 'Finish sign-in'}
              </button>
            </form>
          )}
        </>
      )}
      {(missing || error || openError) && (
        <div className="inline-error" role="alert" data-testid="sign-in-error">
          {missing ?? error ?? openError}
        </div>
      )}
    </div>
  )
}
