/**
 * Every turn's checkpoint, whoever starts the turn: the window's prompts pass through the proxy
 * (checkpointing-proxy.ts), the host's own (a retake) call `before` directly. Either way the
 * folder is recorded before opencode sees the prompt, and the turn is sealed when its session goes
 * idle, seen on the host's own event subscription for that folder. A stop's permission replies
 * (permissions-on-stop.ts) are here too: they belong to every abort, the window's and the host's.
 */
import { ApiError } from '../../shared/unwrap'
import type { CheckpointService } from '../checkpoint-service'
import type { OpencodeConnection } from '../server/connection'
import { watchOpencodeEvents } from '../server/event-watcher'
import { hostClient } from '../server/host-client'
import { denyPending } from './permissions-on-stop'

export interface TurnCheckpoints {
  /**
   * Records the folder before the turn `messageID` starts. Throws the refusal the window sees from
   * the proxy (409 CheckpointFailed): the prompt must then not be sent without the user's say.
   */
  before(directory: string, sessionID: string, messageID: string): Promise<void>
  /** Rejects the permission requests a stopping session (and those it started) waits on. */
  denyPermissionsOf(directory: string | null, sessionID: string): Promise<void>
  stop(): void
}

/** The body opencode-style errors have, so the window and the retake flow read this refusal alike. */
export function checkpointRefusal(reason: string): ApiError {
  const message = `Retake could not record a checkpoint of the folder before this turn: ${reason}`
  return new ApiError('checkpoint', 409, { name: 'CheckpointFailed', data: { message } }, message)
}

export function createTurnCheckpoints(conn: () => OpencodeConnection, service: CheckpointService, log: (l: string) => void): TurnCheckpoints {
  const watchers = new Map<string, () => void>()

  function watch(directory: string) {
    if (watchers.has(directory)) return
    const stop = watchOpencodeEvents(conn, directory, (frame) => {
      if (frame.type !== 'session.idle') return
      const sessionID = frame.properties.sessionID
      if (typeof sessionID !== 'string') return
      service.sealSession(directory, sessionID).catch((err) => log(`[checkpoints] seal ${sessionID} failed: ${(err as Error).message}`))
    })
    watchers.set(directory, stop)
  }

  return {
    async before(directory, sessionID, messageID) {
      watch(directory)
      try {
        await service.capture(directory, sessionID, messageID)
      } catch (err) {
        log(`[checkpoints] capture before ${sessionID}/${messageID} failed: ${(err as Error).stack ?? err}`)
        throw checkpointRefusal((err as Error).message)
      }
    },
    async denyPermissionsOf(directory, sessionID) {
      // A failure is logged and the stop goes on: the turn must stop whatever else fails.
      await denyPending(hostClient(conn(), directory), sessionID, log).catch((err) => log(`[permissions] at the stop of ${sessionID}: ${(err as Error).message}`))
    },
    stop() {
      for (const stop of watchers.values()) stop()
      watchers.clear()
    },
  }
}
