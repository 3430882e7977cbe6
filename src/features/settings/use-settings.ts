/** The host's settings as a query, and saving a part of them. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ChannelInput, Settings } from '../../../shared/ipc-contract'
import { checkpointKeys, hostKeys } from '../../api/query-keys'
import { getBridge } from '../../bridge'

const settingsKey = hostKeys.settings

export function useSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: () => getBridge().invoke('settings.get', {}) })
}

export function useUpdateSettings() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (patch: ChannelInput<'settings.update'>) => getBridge().invoke('settings.update', patch),
    onSuccess: (next, patch) => {
      qc.setQueryData<Settings>(settingsKey, next)
      // New roots or excludes: what the checkpoint queries showed was for the old ones.
      if (patch.extraFolders || patch.excludes) void qc.invalidateQueries({ queryKey: checkpointKeys.any })
    },
  })
}

export type SettingsUpdate = ReturnType<typeof useUpdateSettings>
