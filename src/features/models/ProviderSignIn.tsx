/**
 * Signing in to a provider with one of its OAuth methods. opencode makes the sign-in address; the
 * user sees it whole and opens it (desktop: the system browser through the host's link policy;
 * browser mode: a new tab with no opener). Then either opencode waits for the browser to come back
 * ("auto", device codes included: the code is shown with a copy button) or the user pastes the code
 * the provider's page shows ("code"). What opencode stores is applied like a saved key.
 */
import { getBridge, isDesktop } from '../../bridge'
import { errorMessage } from '../../../shared/unwrap'
import { classifyLink } from '../../ui/markdown/link-policy'
import { deviceCode, signInErrorMessage } from './provider-auth'
import { CopyButton } from '../../ui/CopyButton'
import { useSignInFlow, type SignInFlow, type SignInInputs } from './use-sign-in-flow'

/** Opens the sign-in address outside Retake; resolves to an error text when that was not possible. */
async function openSignInPage(url: string): Promise<string | null> {
  const link = classifyLink(url, window.location.origin)
  if (link.kind !== 'external') return `Retake does not open this address (${link.reason}).`
  if (isDesktop()) {
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

/** The sign-in address as opencode made it. */
type SignInAuth = NonNullable<SignInFlow['start']['data']>

/** The user pastes the code the provider's page shows ("code" methods). */
function SignInCodeForm({ flow, providerID, method }: { flow: SignInFlow; providerID: string; method: number }) {
  const { code, setCode, finish } = flow
  return (
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
  )
}

/** Once started: the provider's instructions (and device code), the address to open, then the wait or the code. */
function SignInSteps({ flow, auth, providerID, method }: { flow: SignInFlow; auth: SignInAuth; providerID: string; method: number }) {
  const device = deviceCode(auth.instructions)
  return (
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
        <button type="button" className="button" data-testid="sign-in-open" onClick={async () => flow.setOpenError(await openSignInPage(auth.url))}>
          Open sign-in page
        </button>
        <CopyButton text={() => auth.url} label="Copy address" testId="sign-in-url-copy" />
        <button type="button" className="button button-secondary" data-testid="sign-in-cancel" onClick={flow.cancel}>
          Cancel
        </button>
      </div>
      {auth.method === 'auto' && flow.finish.isPending && (
        <p className="muted small" data-testid="sign-in-waiting" role="status">
          Waiting for you to finish in the browser…
        </p>
      )}
      {auth.method === 'code' && <SignInCodeForm flow={flow} providerID={providerID} method={method} />}
    </>
  )
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
  inputs: SignInInputs
}) {
  const flow = useSignInFlow(providerID, method, inputs)
  const { start, finish, missing, openError } = flow
  const auth = start.data

  if (finish.isSuccess) {
    return (
      <div className="muted" data-testid="sign-in-done" role="status">
        Signed in to {providerName}. {flow.waiting ? 'It applies as soon as the running turn ends.' : 'In use now, no restart needed.'}
      </div>
    )
  }

  const error = start.error ? signInErrorMessage('start', providerName, start.error) : finish.error ? signInErrorMessage('finish', providerName, finish.error) : null
  return (
    <div className="sign-in" data-testid="sign-in">
      {!auth || (auth.method === 'auto' && finish.isError) ? (
        <button type="button" className="button button-primary" data-testid="sign-in-start" disabled={start.isPending} onClick={flow.begin}>
          {start.isPending ? 'Starting…' : auth ? 'Start again' : `Sign in: ${label}`}
        </button>
      ) : (
        <SignInSteps flow={flow} auth={auth} providerID={providerID} method={method} />
      )}
      {(missing || error || openError) && (
        <div className="inline-error" role="alert" data-testid="sign-in-error">
          {missing ?? error ?? openError}
        </div>
      )}
    </div>
  )
}
