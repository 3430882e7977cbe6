/**
 * The retake's journal: one small file per running retake in the data dir, rewritten atomically
 * (and fsynced) before each destructive step, removed when the retake is over. What is left at the
 * next start is a retake that was cut off; recovery.ts decides from it what to finish or undo.
 */
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { readJson, writeJson } from '../store/json-file'

/** How far a retake got; each phase is written before the step it names acts. */
export const RetakePhaseSchema = z.enum(['started', 'held', 'restoring', 'restored', 'reverting', 'reverted', 'prompting'])
export type RetakePhase = z.infer<typeof RetakePhaseSchema>

export const RetakeRecordSchema = z.object({
  directory: z.string(),
  sessionID: z.string(),
  messageID: z.string(),
  startedAt: z.number(),
  phase: RetakePhaseSchema,
  /** Files the user keeps, set aside (persisted by KeptFiles) before the server's revert. */
  holdId: z.string().optional(),
  /** The file restore this retake made, to undo when the conversation did not follow. */
  restoreId: z.string().optional(),
  /** A /rewind: it stops after the revert, so a reverted one is finished, not to be sent. */
  rewind: z.boolean().optional(),
})
export type RetakeRecord = z.infer<typeof RetakeRecordSchema>

const NAME = /^(ses[A-Za-z0-9_]+)__(msg[A-Za-z0-9_]+)\.json$/

export class RetakeJournal {
  constructor(private readonly dir: string) {}

  private file(sessionID: string, messageID: string): string {
    return join(this.dir, `${sessionID}__${messageID}.json`)
  }

  write(record: RetakeRecord, opts?: { durable?: boolean }): void {
    writeJson(this.file(record.sessionID, record.messageID), record, opts)
  }

  update(record: RetakeRecord, patch: Partial<RetakeRecord>): RetakeRecord {
    const next = { ...record, ...patch }
    // "reverted" is only a note: recovery asks the server whether the revert happened (the
    // session's marker), so a power cut that leaves "reverting" in its place changes nothing (a
    // SIGKILL cannot lose it: the page cache outlives the process). Its folder is not fsynced.
    this.write(next, { durable: next.phase !== 'reverted' })
    return next
  }

  end(record: Pick<RetakeRecord, 'sessionID' | 'messageID'>): void {
    rmSync(this.file(record.sessionID, record.messageID), { force: true })
  }

  /** Retakes that were cut off (a record that cannot be read is set aside by readJson, never acted on). */
  unfinished(): RetakeRecord[] {
    let names: string[]
    try {
      names = readdirSync(this.dir)
    } catch {
      return []
    }
    const out: RetakeRecord[] = []
    for (const name of names) {
      if (!NAME.test(name)) continue
      const rec = readJson(join(this.dir, name), RetakeRecordSchema.nullable(), null)
      if (rec) out.push(rec)
    }
    return out
  }
}
