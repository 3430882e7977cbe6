/** Hooks for the host (Electron main or the browser-mode host) through the bridge. */
import { useEffect } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { getBridge } from '../bridge'
import type { ServerStatus } from '../../shared/ipc-contract'
import { setBlockKey } from '../../shared/attachments/block-key'

import { hostKeys } from './query-keys'

export function useAppInfo() {
  return useQuery({
    queryKey: hostKeys.appInfo,
    queryFn: async () => {
      const info = await getBridge().invoke('app.info', {})
      // Before anything is inlined or shown: blocks are tagged and checked with this install's key.
      setBlockKey(info.attachmentKey)
      return info
    },
    staleTime: Infinity,
    retry: 2,
  })
}

/** The server status, kept current by the host's `server.status` pushes. */
export function useServerStatus() {
  const qc = useQueryClient()
  useEffect(() => getBridge().on('server.status', (status) => qc.setQueryData<ServerStatus>(hostKeys.serverStatus, status)), [qc])
  return useQuery({
    queryKey: hostKeys.serverStatus,
    queryFn: () => getBridge().invoke('server.status', {}),
    staleTime: Infinity,
    // While the server is not ready yet, poll too: a push could be missed before `on` subscribed.
    refetchInterval: (q) => (q.state.data?.state === 'ready' || q.state.data?.state === 'failed' ? false : 2000),
  })
}

export function useRecentProjects() {
  return useQuery({ queryKey: hostKeys.recent, queryFn: () => getBridge().invoke('projects.recent', {}) })
}
