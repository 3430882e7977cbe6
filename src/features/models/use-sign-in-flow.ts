/**
 * One provider sign-in's state: opencode's start and finish calls, the code the user pastes, what
 * went wrong opening the page or is still missing, and the wait for the browser (stopped on close).
 */
import { useEffect, useRef, useState } from 'react'
import { useProviderSignIn } from './provider-auth-calls'
import { useProviderKeysWaiting } from './use-apply-provider-keys'

/** The method's prompts answered, or what is still missing. */
export type SignInInputs = { ok: true; inputs: Record<string, string> } | { ok: false; missing: string }

export function useSignInFlow(providerID: string, method: number, inputs: SignInInputs) {
  const { start, finish } = useProviderSignIn()
  const [code, setCode] = useState('')
  const [openError, setOpenError] = useState<string | null>(null)
  const [missing, setMissing] = useState<string | null>(null)
  const waiting = useProviderKeysWaiting()
  const abort = useRef<AbortController | null>(null)
  // Closing the dialog stops waiting for the browser (opencode's own listener times out by itself).
  useEffect(() => () => abort.current?.abort(), [])

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
  return { start, finish, code, setCode, openError, setOpenError, missing, waiting, begin, cancel }
}

export type SignInFlow = ReturnType<typeof useSignInFlow>
