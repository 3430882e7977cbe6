/**
 * Checkpoint data for the renderer, through the bridge: what each turn changed on disk, restore
 * plans (kept in the host, referred to by id), applying and undoing restores, storage and clean-up.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { getBridge } from '../../bridge'
import { useScope } from '../../api/scope'
import type { EventPayload } from '../../../shared/ipc-contract'

import { checkpointKeys } from '../../api/query-keys'

/** Every recorded turn of the session with the files it changed (refetched when a turn ends). */
export function useTurnCheckpoints(sessionID: string | undefined, idleTick: unknown) {
  const { directory } = useScope()
  const q = useQuery({
    queryKey: checkpointKeys.turns(directory, sessionID ?? ''),
    enabled: !!sessionID,
    queryFn: () => getBridge().invoke('checkpoints.list', { directory, sessionID: sessionID! }),
  })
  const qc = useQueryClient()
  // A turn is sealed when its session goes idle: then its changes are known. The host seals on
  // its own sight of the idle event, so this refetch can come first: its 'sealed' event refetches.
  useEffect(() => {
    if (sessionID) void qc.invalidateQueries({ queryKey: checkpointKeys.turns(directory, sessionID) })
  }, [idleTick, qc, directory, sessionID])
  useEffect(() => {
    if (!sessionID) return
    return getBridge().on('checkpoint.sealed', (p) => {
      if (p.directory === directory && p.sessionID === sessionID) void qc.invalidateQueries({ queryKey: checkpointKeys.turns(directory, sessionID) })
    })
  }, [qc, directory, sessionID])
  return q
}

export function useCheckpointStats(enabled: boolean) {
  const { directory } = useScope()
  return useQuery({ queryKey: checkpointKeys.stats(directory), enabled, queryFn: () => getBridge().invoke('checkpoints.stats', { directory }) })
}

/**
 * The session's latest restore that can be undone or redone, as the host records it (a retake's, the
 * panel's, a continue's; kept across restarts): the one record the Undo bar, the panel and /undo
 * read. Every apply, undo, retake and switch invalidates it (with the rest of `checkpointKeys.all`).
 */
export function lastRestoreQuery(directory: string, sessionID: string) {
  return queryOptions({
    queryKey: checkpointKeys.lastRestore(directory, sessionID),
    queryFn: () => getBridge().invoke('checkpoints.lastRestore', { directory, sessionID }),
  })
}

export function useLastRestore(sessionID: string) {
  const { directory } = useScope()
  return useQuery(lastRestoreQuery(directory, sessionID))
}

export function usePlanRestore() {
  const { directory } = useScope()
  return useMutation({
    mutationFn: (target: { turn: { sessionID: string; messageID: string } } | { backTo: { sessionID: string; messageID: string } }) =>
      getBridge().invoke('checkpoints.plan', { directory, target }),
  })
}

export function useApplyRestore() {
  const { directory } = useScope()
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (v: { planId: string; overwrite: string[]; keep?: string[] }) =>
      getBridge().invoke('checkpoints.apply', { directory, planId: v.planId, onConflict: 'restore-rest', overwrite: v.overwrite, keep: v.keep ?? [] }),
    onSettled: () => qc.invalidateQueries({ queryKey: checkpointKeys.all(directory) }),
  })
}

export function useUndoRestore() {
  const { directory } = useScope()
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (restoreId: string) => getBridge().invoke('checkpoints.undo', { directory, restoreId }),
    onSettled: () => qc.invalidateQueries({ queryKey: checkpointKeys.all(directory) }),
  })
}

/** fsck of this project's checkpoints; `repair` also drops what nothing refers to. */
export function useVerifyCheckpoints() {
  const { directory } = useScope()
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (repair: boolean) => getBridge().invoke('checkpoints.verify', { directory, repair }),
    onSettled: () => qc.invalidateQueries({ queryKey: checkpointKeys.all(directory) }),
  })
}

export function useCleanupCheckpoints() {
  const { directory } = useScope()
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (v: { maxAgeDays?: number; maxTurnsPerSession?: number }) => getBridge().invoke('checkpoints.cleanup', { directory, ...v }),
    onSettled: () => qc.invalidateQueries({ queryKey: checkpointKeys.all(directory) }),
  })
}

/** The latest capture progress of this folder (a first capture of a big folder takes a while). */
export function useCaptureProgress(): EventPayload<'checkpoint.progress'> | null {
  const { directory } = useScope()
  const [progress, setProgress] = useState<EventPayload<'checkpoint.progress'> | null>(null)
  useEffect(() => {
    // Most captures are over in milliseconds: only one still running after a moment gets a bar,
    // so sending in a small folder does not flash one.
    const started = new Map<string, number>()
    return getBridge().on('checkpoint.progress', (p) => {
      if (p.directory !== directory) return
      const key = `${p.sessionID}/${p.messageID}`
      if (p.phase === 'done') {
        started.delete(key)
        setProgress(null)
        return
      }
      const first = started.get(key) ?? Date.now()
      started.set(key, first)
      if (Date.now() - first >= 300) setProgress(p)
    })
  }, [directory])
  return progress
}
