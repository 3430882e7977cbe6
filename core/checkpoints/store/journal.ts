// Restore journal: journal/<restoreId>.jsonl. The first line is the intent (every step, written
// and fsynced before anything is touched); then one line per finished step; then `commit`, after
// the restore record and the turns' status are written. A torn last line (crash mid-append) is
// ignored: that step simply runs again, and every step is idempotent.
import fs from 'node:fs'
import path from 'node:path'
import { appendLineSync, FILE_MODE, fsyncDir, listDir, mkdirPrivate } from './fsutil'
import { addKey } from './paths'
import type { Entry, TurnKey, Xattrs } from '../types'

export type Step =
  | { op: 'unlink'; root: string; key: string }
  | { op: 'rmdir'; root: string; key: string }
  | { op: 'mkdir'; root: string; key: string; mode: number; xattrs?: Xattrs }
  | { op: 'write'; root: string; key: string; entry: Entry }
  | { op: 'symlink'; root: string; key: string; link: string }
  | { op: 'chmod'; root: string; key: string; mode: number; xattrs?: Xattrs }

export interface Intent {
  type: 'intent'
  restoreId: string
  kind: 'turn' | 'backTo' | 'undo'
  turns: TurnKey[]
  /** Snapshot of the pre-restore state (the undo target), committed before the intent. */
  pre: string
  /**
   * Paths the restore touches besides its steps' own (folders a write creates on its way): every
   * step's path is touched too (intentTouched). Why not listed: in an install's restore they were
   * half of the intent, written and fsynced before the first delete. Journals written before this
   * listed every path; the union is the same.
   */
  touched: Record<string, string[]>
  steps: Step[]
  undoOf?: string
}

export interface JournalState {
  intent: Intent
  done: Set<number>
  failed: Map<number, string>
  /** Steps that left their path as it was (KeptInPlace), with the reason: reported after a crash too. */
  kept: Map<number, string>
  committed: boolean
}

/** Marks of plain deletes written together (see Journal.done). */
const DONE_BATCH = 256

export class Journal {
  private fd: number
  private waiting: string[] = []
  constructor(
    readonly file: string,
    intent: Intent,
  ) {
    mkdirPrivate(path.dirname(file))
    this.fd = fs.openSync(file, 'wx', FILE_MODE)
    appendLineSync(this.fd, JSON.stringify(intent))
    fsyncDir(path.dirname(file))
  }

  static resume(file: string): Journal {
    const j = Object.create(Journal.prototype) as Journal
    Object.assign(j, { file, fd: fs.openSync(file, 'a'), waiting: [] })
    return j
  }

  /**
   * Not fsynced on its own: steps are idempotent, so a lost `done` only means the step is redone
   * on recovery. The intent (before acting) and the commit (after everything) are fsynced.
   * `batched`: the step is a plain delete (nothing else in the restore touches its path), so its
   * mark may wait for the next DONE_BATCH (not one write per deleted file of an install). Every other mark writes the waiting ones first, so a mark that a kill loses belongs
   * to a delete made after the last mark on disk: redone, it finds the path gone.
   */
  done(i: number, batched = false): void {
    // JSON.stringify({ type: 'done', i }) spelled out: one per deleted file of an install.
    const line = `{"type":"done","i":${i}}`
    if (batched) {
      this.waiting.push(line)
      if (this.waiting.length >= DONE_BATCH) this.flush()
      return
    }
    this.flush()
    fs.writeSync(this.fd, line + '\n')
  }
  /** A step that kept its path as the user left it: done, and its reason is reported by recovery. */
  kept(i: number, reason: string): void {
    this.flush()
    fs.writeSync(this.fd, JSON.stringify({ type: 'kept', i, reason }) + '\n')
  }
  failed(i: number, error: string): void {
    this.flush()
    appendLineSync(this.fd, JSON.stringify({ type: 'failed', i, error }))
  }
  private flush(): void {
    if (!this.waiting.length) return
    fs.writeSync(this.fd, this.waiting.join('\n') + '\n')
    this.waiting = []
  }
  commit(): void {
    this.flush()
    appendLineSync(this.fd, JSON.stringify({ type: 'commit' }))
    fs.closeSync(this.fd)
    // A committed journal has nothing left to say; removing it marks the restore complete. The
    // removal needs no fsync: a journal that reappears after a power loss ends with `commit` and
    // is simply removed on the next open.
    fs.rmSync(this.file, { force: true })
  }
}

/** Every path an intent's restore touches, by root id: its steps' paths and `touched`. */
export function intentTouched(intent: Intent): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const s of intent.steps) addKey(out, s.root, s.key)
  for (const [rid, keys] of Object.entries(intent.touched)) for (const k of keys) addKey(out, rid, k)
  return out
}

const journalDir = (storeDir: string): string => path.join(storeDir, 'journal')
export const journalFile = (storeDir: string, restoreId: string): string => path.join(journalDir(storeDir), `${restoreId}.jsonl`)

/** Read a journal, tolerating a torn or garbage last line. Null: no durable intent (nothing ran). */
export function readJournal(file: string): JournalState | null {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
  const lines = text.split('\n')
  let intent: Intent | null = null
  const done = new Set<number>()
  const failed = new Map<number, string>()
  const kept = new Map<number, string>()
  let committed = false
  for (const line of lines) {
    if (!line.trim()) continue
    let rec: { type?: string; i?: number; error?: string; reason?: string }
    try {
      rec = JSON.parse(line)
    } catch {
      continue // torn line
    }
    if (rec.type === 'intent' && !intent) intent = rec as unknown as Intent
    else if (rec.type === 'done' && typeof rec.i === 'number') done.add(rec.i)
    else if (rec.type === 'failed' && typeof rec.i === 'number') failed.set(rec.i, rec.error ?? 'failed')
    else if (rec.type === 'kept' && typeof rec.i === 'number') {
      done.add(rec.i)
      kept.set(rec.i, rec.reason ?? 'kept')
    } else if (rec.type === 'commit') committed = true
  }
  if (!intent || !Array.isArray(intent.steps)) return null
  return { intent, done, failed, kept, committed }
}

export function pendingJournals(storeDir: string): string[] {
  const dir = journalDir(storeDir)
  return listDir(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => path.join(dir, n))
}
