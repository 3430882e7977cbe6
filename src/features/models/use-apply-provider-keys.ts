/**
 * Applies saved provider keys without a restart. Opencode builds a project's providers once, so a
 * key stored through its auth API is only used after the project's instance is reloaded
 * (`instance.dispose`; measured on 1.18.33: the next request still went out without the key).
 * A reload would cut a running turn short, so it waits until every session of the project is idle.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useProviderKeysStore } from './provider-keys-store'
import { clientFor } from '../../api/client'
import { useStatusMap } from '../../api/queries'
import { queryKeys } from '../../api/query-keys'
import { useScope } from '../../api/scope'
import { unwrap } from '../../../shared/unwrap'

export function useApplyProviderKeys(): void {
  const scope = useScope()
  const qc = useQueryClient()
  const pending = useProviderKeysStore((s) => s.pendingApply)
  const status = useStatusMap()
  const running = useRef(false)
  const allIdle = !!status.data && Object.values(status.data).every((s) => s.type === 'idle')
  useEffect(() => {
    if (!pending || !allIdle || running.current) return
    running.current = true
    void (async () => {
      try {
        unwrap('instance.dispose', await clientFor(scope.directory).instance.dispose())
        useProviderKeysStore.getState().setPendingApply(false)
        await Promise.all([qc.invalidateQueries({ queryKey: queryKeys.configProviders(scope) }), qc.invalidateQueries({ queryKey: queryKeys.providerList(scope) })])
      } catch {
        // Left pending: the next idle moment tries again.
      } finally {
        running.current = false
      }
    })()
  }, [pending, allIdle, scope, qc])
}

/** Whether saved keys are waiting for the running turn to end before they apply. */
export function useProviderKeysWaiting(): boolean {
  const pending = useProviderKeysStore((s) => s.pendingApply)
  const status = useStatusMap()
  return pending && !!status.data && Object.values(status.data).some((s) => s.type !== 'idle')
}
