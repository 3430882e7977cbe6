/**
 * Provider sign-in through opencode (`provider.auth`, `provider.oauth.authorize/callback`). opencode
 * does the OAuth work (PKCE, its own callback listener, the token exchange, storing the result);
 * Retake shows the methods, opens the URL and, once opencode confirms, applies it like a saved key.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { checkAuthorization } from './provider-auth'
import { clientFor } from '../../api/client'
import { useProviderKeysStore } from './provider-keys-store'
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

/**
 * After a key or a sign-in was saved or removed: mark it for the instance reload that makes opencode
 * use it (use-apply-provider-keys.ts) and refetch what lists providers.
 */
export function useProvidersChanged(): () => Promise<unknown> {
  const scope = useScope()
  const qc = useQueryClient()
  return () => {
    useProviderKeysStore.getState().setPendingApply(true)
    return Promise.all([qc.invalidateQueries({ queryKey: queryKeys.configProviders(scope) }), qc.invalidateQueries({ queryKey: queryKeys.providerList(scope) })])
  }
}

/** Stores or removes a provider API key; the provider/model lists are refetched afterwards. */
export function useProviderAuth() {
  const scope = useScope()
  const refresh = useProvidersChanged()
  const set = useMutation({
    // `metadata`: the answers to an API-key method's prompts (an account id, a resource name).
    mutationFn: async (v: { providerID: string; key: string; metadata?: Record<string, string> }) =>
      unwrap(
        'auth.set',
        await clientFor(scope.directory).auth.set({
          providerID: v.providerID,
          auth: { type: 'api', key: v.key, ...(v.metadata && Object.keys(v.metadata).length ? { metadata: v.metadata } : {}) },
        }),
      ),
    onSuccess: refresh,
  })
  const remove = useMutation({
    mutationFn: async (providerID: string) => unwrap('auth.remove', await clientFor(scope.directory).auth.remove({ providerID })),
    onSuccess: refresh,
  })
  return { set, remove }
}
