/**
 * What the engine asks of a change journal, and the bookkeeping both backends share (the parcel
 * watcher in watch.ts, the engine's own inotify worker in inotify-watch.ts): the paths with events
 * since the last take, and whether they can be trusted at all.
 */
import type fs from 'node:fs'

export interface ChangeWatcher {
  dirCreated: boolean
  baseline: boolean
  readonly healthy: boolean
  barrier(): Promise<boolean>
  take(): Set<string> | null
  reset(): void
  resubscribe(): Promise<void>
  checkFolder(st: fs.Stats): void
  stop(): Promise<void>
}

export abstract class JournalState {
  /**
   * A folder was created since the subscription. Measured: @parcel/watcher (inotify) can miss the
   * watch on folders created in quick succession (mkdir -p, unpacking) and then never reports
   * changes inside them. Such a watcher is re-subscribed before the next full scan (a fresh
   * subscription watches every folder that exists), and no baseline is trusted meanwhile.
   */
  dirCreated = false
  /** True once a full scan ran with this watcher active (the dirty set is relative to it). */
  baseline = false
  /** When the current subscription started (folders born after it may lack a watch). */
  subscribedAt = 0
  protected dirty = new Set<string>()
  protected broken = false

  /** Take the paths with events since the last take (absolute). Null when not trustworthy. */
  take(): Set<string> | null {
    if (this.broken || !this.baseline) {
      this.dirty = new Set()
      return null
    }
    const d = this.dirty
    this.dirty = new Set()
    return d
  }

  /**
   * Called by the full walk for every folder: a folder born after the subscription started may
   * have no watch even when no create event was reported, so the baseline is not trusted. With
   * no birth time (some file systems), nothing can be proven and the watcher is never trusted.
   */
  checkFolder(st: fs.Stats): void {
    if (!(st.birthtimeMs > 0) || st.birthtimeMs >= this.subscribedAt - 100) this.dirCreated = true
  }

  /** Forget events (a full scan is about to record the truth). */
  reset(): void {
    this.dirty = new Set()
    this.dirCreated = false
  }
}
