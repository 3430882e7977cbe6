/** The `checkpoints.*` channels: thin calls into the CheckpointService. */
import type { CheckpointService } from '../checkpoint-service'
import type { Handlers } from './router'
import type { ChangeItem } from '../checkpoints'

type CheckpointHandlers = Pick<
  Handlers,
  | 'checkpoints.list'
  | 'checkpoints.changes'
  | 'checkpoints.restoreChanges'
  | 'checkpoints.plan'
  | 'checkpoints.apply'
  | 'checkpoints.undo'
  | 'checkpoints.stats'
  | 'checkpoints.lastRestore'
  | 'checkpoints.verify'
  | 'checkpoints.cleanup'
>

export function checkpointHandlers(service: CheckpointService): CheckpointHandlers {
  // What a sealed turn changed is fixed by its two snapshots: computed once (it reads and diffs the
  // changed files), not on every refresh of the timeline. A new seal gives a new key.
  const summaries = new Map<string, ChangeItem[]>()
  return {
    'checkpoints.list': async ({ directory, sessionID }) => {
      // Asked as the session goes idle, as the host starts sealing: answer with the seal's result.
      await service.sealed(directory, sessionID)
      const store = await service.store(directory)
      const turns = await store.listTurns(sessionID)
      return Promise.all(
        turns.map(async (t) => {
          let changes: ChangeItem[] = []
          if (t.status !== 'open') {
            const key = `${directory}\n${sessionID}/${t.turnKey.messageID}\n${t.sealedAt ?? ''}`
            changes = summaries.get(key) ?? (await store.changes(t.turnKey)).map(({ diff: _diff, ...rest }) => rest)
            if (summaries.size > 5000) summaries.clear()
            summaries.set(key, changes)
          }
          return { messageID: t.turnKey.messageID, status: t.status, createdAt: t.createdAt, sealedAt: t.sealedAt, changes }
        }),
      )
    },
    'checkpoints.changes': async ({ directory, sessionID, messageID }) => (await service.store(directory)).changes({ sessionID, messageID }),
    'checkpoints.restoreChanges': async ({ directory, restoreId }) => (await service.store(directory)).restoreChanges(restoreId),
    'checkpoints.plan': async ({ directory, target }) => {
      const plan = await service.plan(directory, 'turn' in target ? { turnKey: target.turn } : { backTo: target.backTo })
      return {
        planId: plan.planId,
        turns: plan.turns,
        warnings: plan.warnings,
        suggestion: plan.suggestion,
        actions: plan.actions.map((a) => ({
          id: a.id,
          root: a.root,
          path: a.path,
          kind: a.kind,
          reason: a.reason,
          expectedHash: a.expectedHash,
          actualHash: a.actualHash,
          diff: a.diff,
          binary: a.binary,
          existedBefore: !!a.target,
        })),
      }
    },
    'checkpoints.apply': ({ directory, planId, onConflict, overwrite, keep }) => service.apply(directory, planId, { onConflict, overwrite, keep }),
    'checkpoints.undo': ({ directory, restoreId }) => service.undo(directory, restoreId),
    'checkpoints.stats': async ({ directory }) => (await service.store(directory)).stats(),
    'checkpoints.lastRestore': async ({ directory, sessionID }) => {
      const r = await (await service.store(directory)).lastRestore(sessionID)
      return r && { restoreId: r.restoreId, messageID: r.turn.messageID, at: r.createdAt, rolledBack: r.rolledBack }
    },
    'checkpoints.verify': async ({ directory, repair }) => {
      const r = await (await service.store(directory)).verify({ repair })
      const place = (p: { root: string; path: string }) => ({ root: p.root, path: p.path })
      return {
        ok: r.ok,
        blobsChecked: r.blobsChecked,
        missing: r.missing.map(place),
        damaged: r.damaged.map(place),
        brokenTurns: r.brokenTurns,
        unreachableBlobs: r.unreachableBlobs,
        unreachableBytes: r.unreachableBytes,
        repaired: r.repaired,
      }
    },
    'checkpoints.cleanup': async ({ directory, maxAgeDays, maxTurnsPerSession }) => {
      const store = await service.store(directory)
      const r = await store.retention({
        maxAgeMs: maxAgeDays ? maxAgeDays * 24 * 3600 * 1000 : undefined,
        maxCountPerSession: maxTurnsPerSession,
      })
      const s = await store.sweep()
      return { turnsDropped: r.turnsDropped, bytesFreed: r.bytesFreed + s.bytesFreed }
    },
  }
}
