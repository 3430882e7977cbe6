// One owner per store for the engine's whole lifetime. Two engines on one store (two app
// instances, desktop and browser mode on one data dir, a store reopened before the old one
// closed) would hand out the same snapshot ids and one's sweep would delete blobs the other still
// needs. The owner file names the process by pid AND start time: after a reboot or a long uptime a
// dead owner's pid can belong to an unrelated live process, which must not keep the store locked.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { FILE_MODE } from './fsutil'
import { CheckpointError } from '../types'
import { processStartTime, sameProcess } from '../../process-identity'

export interface OwnerRecord {
  pid: number
  /** The process's start time as the OS reports it (null where it cannot be read). */
  start: string | null
  host: string
  nonce: string
  at: number
}

/** A half-written owner file (crash between create and write) older than this is stale. */
const TORN_OWNER_MS = 10_000
/** Stores open in this process (by real path): a second open here is refused like another process's. */
const openHere = new Set<string>()

/** Whether the process that wrote `o` still runs: same pid and, where known, the same start time. */
export function ownerAlive(o: Pick<OwnerRecord, 'pid' | 'start' | 'host'>): boolean {
  // Another machine's process (a store on a shared drive) cannot be checked: assume it runs.
  if (o.host !== os.hostname()) return true
  return sameProcess(o.pid, o.start)
}

export class StoreOwner {
  private readonly file: string
  private readonly key: string
  private mine: OwnerRecord | null = null

  constructor(storeDir: string) {
    this.file = path.join(storeDir, 'owner')
    this.key = fs.realpathSync(storeDir)
  }

  /** Become the store's owner, or throw EOWNED naming the process that is. */
  claim(): void {
    if (openHere.has(this.key)) throw new CheckpointError('EOWNED', `checkpoint store ${this.key} is already open in this process; close it first`)
    const me: OwnerRecord = { pid: process.pid, start: processStartTime(process.pid), host: os.hostname(), nonce: crypto.randomBytes(8).toString('hex'), at: Date.now() }
    for (let attempt = 0; attempt < 5; attempt++) {
      if (this.tryCreate(me)) {
        this.mine = me
        openHere.add(this.key)
        return
      }
      const seen = readRecord(this.file)
      if (seen === 'torn') {
        if (this.ageMs() < TORN_OWNER_MS) throw this.busy('another process is opening it')
      } else if (seen && ownerAlive(seen)) {
        throw this.busy(`in use by process ${seen.pid}${seen.host === me.host ? '' : ` on ${seen.host}`}`)
      }
      this.removeStale(seen)
    }
    throw this.busy('its owner file keeps changing')
  }

  release(): void {
    if (!this.mine) return
    const seen = readRecord(this.file)
    // Only our own record is removed: never a successor's.
    if (seen && seen !== 'torn' && seen.nonce === this.mine.nonce) fs.rmSync(this.file, { force: true })
    this.mine = null
    openHere.delete(this.key)
  }

  private busy(why: string): CheckpointError {
    return new CheckpointError(
      'EOWNED',
      `checkpoint store ${this.key} is ${why}: another Retake window or browser-mode host has this project open; close it, or give this one its own data folder`,
    )
  }

  private tryCreate(me: OwnerRecord): boolean {
    let fd: number
    try {
      fd = fs.openSync(this.file, 'wx', FILE_MODE)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw err
    }
    try {
      fs.writeSync(fd, JSON.stringify(me))
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    return true
  }

  private ageMs(): number {
    try {
      return Date.now() - fs.statSync(this.file).mtimeMs
    } catch {
      return Infinity
    }
  }

  /**
   * Move a dead owner's file aside. Two openers may both judge it stale: the file is renamed (atomic)
   * and checked afterwards, so the slower one cannot throw away the faster one's fresh claim; if it
   * moved a live claim it links it back.
   */
  private removeStale(judged: OwnerRecord | 'torn' | null): void {
    if (judged === null) return
    const aside = `${this.file}.stale-${process.pid}-${crypto.randomBytes(4).toString('hex')}`
    try {
      fs.renameSync(this.file, aside)
    } catch {
      return // gone already: someone else cleaned it
    }
    const moved = readRecord(aside)
    const same = judged === 'torn' ? moved === 'torn' : moved !== 'torn' && moved?.nonce === judged.nonce
    if (!same) {
      try {
        fs.linkSync(aside, this.file)
      } catch {
        /* a third claim already took the name: theirs stands */
      }
    }
    fs.rmSync(aside, { force: true })
  }
}

/**
 * Removes a store's owner file when it names this process: called by the host after the engine's
 * thread died (its stores were never closed), so the fresh thread is not refused as a second owner.
 * Only the engine's one thread opens stores in this process, and it is gone.
 */
export function releaseOwnerLeftHere(storeDir: string): void {
  const file = path.join(storeDir, 'owner')
  const o = readRecord(file)
  if (o && o !== 'torn' && o.pid === process.pid && o.host === os.hostname()) fs.rmSync(file, { force: true })
}

/** The owner on file; 'torn' when the file exists but holds no record; null when there is none. */
function readRecord(file: string): OwnerRecord | 'torn' | null {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
  try {
    const o = JSON.parse(text) as OwnerRecord
    return typeof o.pid === 'number' && typeof o.nonce === 'string' && typeof o.host === 'string' ? o : 'torn'
  } catch {
    return 'torn'
  }
}
