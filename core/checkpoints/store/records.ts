// Turn and restore records: small JSON files, each written atomically, all held in memory.
// turns/<sessionID>/<messageID>.json — the turn's pre-image (capture) and after-state (seal).
// restores/<restoreId>.json — what a restore changed, so it can be undone.
// attempt-turns/<sessionID>/<messageID>@<createdAt>.json — a turn record a retake replaced (the same
// message id asked again): the previous attempt's turn, kept so that attempt can be made current.
import fs from 'node:fs'
import path from 'node:path'
import { mkdirPrivate, readJson, writeJsonAtomic } from './fsutil'
import { isSafeKey } from './paths'
import type { Entry, TurnKey, TurnStatus } from '../types'

export const TURN_FORMAT = 'retake-checkpoint-turn'

/** The rules of one root at a capture (stored on the turn record; coverage.ts reads them). */
export interface RootCoverage {
  excludes: string[]
  gitignore: boolean
}

export interface TurnRecord {
  format: string
  version: 1
  sessionID: string
  messageID: string
  /** Global order of creation (turns of a session are ordered by it). */
  seq: number
  pre: string
  post: string | null
  status: TurnStatus
  createdAt: number
  sealedAt?: number
  restoredBy?: string
  /** Set on a fork: the session whose turn this copies (blobs are shared, not copied). */
  forkedFrom?: string
  /**
   * Set on a fork: the message id the turn was first recorded under (opencode gives the fork's
   * messages ids of their own, and the copy is recorded under the fork's). Absent: `messageID`.
   */
  origin?: string
  /**
   * The roots the capture walked (id → their exclude rules then). A path outside them was not
   * checkpointed, so a restore never deletes it. Absent on records from before it was kept.
   */
  coverage?: Record<string, RootCoverage>
}

/** The message id a turn was first recorded under (a fork's copy is recorded under the fork's). */
export const originOf = (t: TurnRecord): string => t.origin ?? t.messageID

export interface RestoreRecord {
  format: 'retake-checkpoint-restore'
  version: 1
  restoreId: string
  kind: 'turn' | 'backTo' | 'undo'
  turns: TurnKey[]
  /** Snapshot taken just before acting (the undo target) and just after. */
  pre: string
  post: string
  /** Paths the restore touched: root id → keys. */
  touched: Record<string, string[]>
  status: 'done' | 'partial' | 'undone'
  createdAt: number
  undoOf?: string
  /**
   * A restore completed by recovery: what its steps wrote where the disk showed something else by
   * then (the user's edit while the app was down; null: it deleted the path). An undo expects
   * these instead of `post`, so that edit is a conflict, never overwritten (recovery-check.ts).
   */
  wrote?: Record<string, Record<string, Entry | null>>
}

export class Records {
  readonly turns = new Map<string, TurnRecord>()
  readonly restores = new Map<string, RestoreRecord>()
  /** Turn records replaced by a retake, by `Records.archiveKey`. */
  readonly archived = new Map<string, TurnRecord>()
  readonly warnings: string[] = []
  private readonly turnsDir: string
  private readonly restoresDir: string
  private readonly archiveDir: string
  private seq = 0

  constructor(storeDir: string) {
    this.turnsDir = path.join(storeDir, 'turns')
    this.restoresDir = path.join(storeDir, 'restores')
    this.archiveDir = path.join(storeDir, 'attempt-turns')
    mkdirPrivate(this.turnsDir)
    mkdirPrivate(this.restoresDir)
    this.load()
    this.loadArchive()
  }

  static archiveKey(t: TurnRecord): string {
    return `${Records.key(t)}@${t.createdAt}`
  }

  static key(k: TurnKey): string {
    return `${k.sessionID}/${k.messageID}`
  }

  private load(): void {
    for (const ses of fs.readdirSync(this.turnsDir)) {
      const d = path.join(this.turnsDir, ses)
      if (!fs.statSync(d).isDirectory()) continue
      for (const name of fs.readdirSync(d)) {
        if (!name.endsWith('.json')) continue
        const t = readJson<TurnRecord>(path.join(d, name))
        if (!t || t.format !== TURN_FORMAT || t.version !== 1 || typeof t.pre !== 'string') {
          this.warnings.push(`ignored turn record ${ses}/${name}: unknown or damaged format`)
          continue
        }
        this.turns.set(Records.key(t), t)
        this.seq = Math.max(this.seq, t.seq)
      }
    }
    for (const name of fs.readdirSync(this.restoresDir)) {
      if (!name.endsWith('.json')) continue
      const r = readJson<RestoreRecord>(path.join(this.restoresDir, name))
      if (!r || r.format !== 'retake-checkpoint-restore') {
        this.warnings.push(`ignored restore record ${name}`)
        continue
      }
      let ok = true
      for (const keys of Object.values(r.touched)) for (const k of keys) if (!isSafeKey(k)) ok = false
      for (const byKey of Object.values(r.wrote ?? {})) for (const k of Object.keys(byKey)) if (!isSafeKey(k)) ok = false
      if (ok) this.restores.set(r.restoreId, r)
      else this.warnings.push(`ignored restore record ${name}: unsafe path`)
    }
  }

  private loadArchive(): void {
    if (!fs.existsSync(this.archiveDir)) return
    for (const ses of fs.readdirSync(this.archiveDir)) {
      const d = path.join(this.archiveDir, ses)
      if (!fs.statSync(d).isDirectory()) continue
      for (const name of fs.readdirSync(d)) {
        const t = name.endsWith('.json') ? readJson<TurnRecord>(path.join(d, name)) : null
        if (!t || t.format !== TURN_FORMAT || t.version !== 1 || typeof t.pre !== 'string') continue
        // A swap cut off between its writes leaves the record in both places: the current one wins.
        const current = this.turns.get(Records.key(t))
        if (current && current.createdAt === t.createdAt) fs.rmSync(path.join(d, name), { force: true })
        else this.archived.set(Records.archiveKey(t), t)
      }
    }
  }

  /** Keeps a turn record a retake is about to replace (written before the replacement). */
  archiveTurn(t: TurnRecord): void {
    const d = path.join(this.archiveDir, t.sessionID)
    mkdirPrivate(this.archiveDir)
    mkdirPrivate(d)
    writeJsonAtomic(path.join(d, `${t.messageID}@${t.createdAt}.json`), t)
    this.archived.set(Records.archiveKey(t), t)
  }

  dropArchived(t: TurnRecord): void {
    fs.rmSync(path.join(this.archiveDir, t.sessionID, `${t.messageID}@${t.createdAt}.json`), { force: true })
    this.archived.delete(Records.archiveKey(t))
  }

  /** Replaced records of one turn (its earlier attempts). */
  archivedOf(k: TurnKey): TurnRecord[] {
    const key = Records.key(k)
    return [...this.archived.values()].filter((t) => Records.key(t) === key)
  }

  nextSeq(): number {
    return ++this.seq
  }

  saveTurn(t: TurnRecord): void {
    const d = path.join(this.turnsDir, t.sessionID)
    const made = !fs.existsSync(d)
    if (made) mkdirPrivate(d)
    try {
      writeJsonAtomic(path.join(d, `${t.messageID}.json`), t)
    } catch (err) {
      // The session's first record did not fit (a full disk): no empty folder stays for it.
      if (made) fs.rmSync(d, { recursive: true, force: true })
      throw err
    }
    this.turns.set(Records.key(t), t)
  }

  deleteTurn(t: TurnRecord): void {
    for (const a of this.archivedOf(t)) this.dropArchived(a)
    fs.rmSync(path.join(this.turnsDir, t.sessionID, `${t.messageID}.json`), { force: true })
    this.turns.delete(Records.key(t))
    try {
      fs.rmdirSync(path.join(this.turnsDir, t.sessionID))
    } catch {
      /* not empty */
    }
  }

  saveRestore(r: RestoreRecord): void {
    writeJsonAtomic(path.join(this.restoresDir, `${r.restoreId}.json`), r)
    this.restores.set(r.restoreId, r)
  }

  deleteRestore(id: string): void {
    fs.rmSync(path.join(this.restoresDir, `${id}.json`), { force: true })
    this.restores.delete(id)
  }

  /** Turns of a session in order of creation. */
  sessionTurns(sessionID: string): TurnRecord[] {
    return [...this.turns.values()].filter((t) => t.sessionID === sessionID).sort((a, b) => a.seq - b.seq)
  }

  allTurns(): TurnRecord[] {
    return [...this.turns.values()].sort((a, b) => a.seq - b.seq)
  }
}
