// Turn and restore records: small JSON files, each written atomically, all held in memory.
// turns/<sessionID>/<messageID>.json — the turn's pre-image (capture) and after-state (seal).
// restores/<restoreId>.json — what a restore changed, so it can be undone.
import fs from 'node:fs'
import path from 'node:path'
import { mkdirPrivate, writeJsonAtomic } from './fsutil'
import { isSafeKey } from './paths'
import type { RootCoverage } from './coverage'
import type { TurnKey, TurnStatus } from './types'

export const TURN_FORMAT = 'retake-checkpoint-turn'

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
   * The roots the capture walked (id → their exclude rules then). A path outside them was not
   * checkpointed, so a restore never deletes it. Absent on records from before it was kept.
   */
  coverage?: Record<string, RootCoverage>
}

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
}

export class Records {
  readonly turns = new Map<string, TurnRecord>()
  readonly restores = new Map<string, RestoreRecord>()
  readonly warnings: string[] = []
  private readonly turnsDir: string
  private readonly restoresDir: string
  private seq = 0

  constructor(storeDir: string) {
    this.turnsDir = path.join(storeDir, 'turns')
    this.restoresDir = path.join(storeDir, 'restores')
    mkdirPrivate(this.turnsDir)
    mkdirPrivate(this.restoresDir)
    this.load()
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
        const t = readRecord<TurnRecord>(path.join(d, name))
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
      const r = readRecord<RestoreRecord>(path.join(this.restoresDir, name))
      if (!r || r.format !== 'retake-checkpoint-restore') {
        this.warnings.push(`ignored restore record ${name}`)
        continue
      }
      let ok = true
      for (const keys of Object.values(r.touched)) for (const k of keys) if (!isSafeKey(k)) ok = false
      if (ok) this.restores.set(r.restoreId, r)
      else this.warnings.push(`ignored restore record ${name}: unsafe path`)
    }
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

function readRecord<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T
  } catch {
    return null
  }
}
