/**
 * Provider sign-in through opencode (`provider.auth`, `provider.oauth.authorize/callback`). opencode
 * does the OAuth work (PKCE, its own callback listener, the token exchange, storing the result);
 * Retake shows the methods, opens the URL and, once opencode confirms, applies it like a saved key.
 */
import { useMutation, useQuery } from '@tanstack/react-query'
import { checkAuthorization } from './provider-auth'
import { clientFor } from '../../api/client'
import { useProvidersChanged } from '../../api/mutations'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import { unwrap } from '../../../shared/unwrap'

/** Each provider's auth methods, as the server reports them (providers without a plugin are absent). */
export function useProviderAuthMethods(enabled: boolean) {
  const scope = useScope()
  return useQuery({
    queryKey: queryKeys.providerAuth(scope),
    enabled,
    staleTime: 60_000,
    queryFn: async () => unwrap('provider.auth', await clientFor(scope.directory).provider.auth()),
  })
}

export interface SignInStart {
  providerID: string
  /** The method's index in the server's list (authorize and callback both take it). */
  method: number
  inputs?: Record<string, string>
}

export interface SignInFinish {
  providerID: string
  method: number
  /** Only for the "code" flow: what the provider's page showed the user. */
  code?: string
  /** The "auto" flow's callback waits until the browser comes back; closing the dialog stops waiting. */
  signal?: AbortSignal
}

export function useProviderSignIn() {
  const scope = useScope()
  const changed = useProvidersChanged()
  const start = useMutation({
    mutationFn: async (v: SignInStart) =>
      checkAuthorization(
        unwrap(
          'provider.oauth.authorize',
          await clientFor(scope.directory).provider.oauth.authorize({
            providerID: v.providerID,
            method: v.method,
            ...(v.inputs && Object.keys(v.inputs).length ? { inputs: v.inputs } : {}),
          }),
        ),
      ),
  })
  const finish = useMutation({
    mutationFn: async (v: SignInFinish) => {
      const ok = unwrap(
        'provider.oauth.callback',
        await clientFor(scope.directory).provider.oauth.callback(
          { providerID: v.providerID, method: v.method, ...(v.code !== undefined ? { code: v.code } : {}) },
          v.signal ? { signal: v.signal } : undefined,
        ),
      )
      // 200 with `false` would be a sign-in opencode did not store: never report that as done.
      if (ok !== true) throw new Error('The opencode server did not confirm the sign-in.')
      return ok
    },
    onSuccess: changed,
  })
  return { start, finish }
}
