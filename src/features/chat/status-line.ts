/** The text of the status line: idle / busy / provider retrying with a countdown. */
import type { SessionStatus } from '../../api/types'

export type StatusKind = 'idle' | 'busy' | 'retry' | 'offline'

export interface StatusLine {
  kind: StatusKind
  text: string
  /** Provider's reason for a retry (e.g. "Rate limited"), shown as a tooltip/second line. */
  detail?: string
}

/** Seconds until `next` (epoch ms), never negative, rounded up so "0 s" means now. */
export function secondsUntil(next: number, now: number): number {
  return Math.max(0, Math.ceil((next - now) / 1000))
}

export function statusLine(status: SessionStatus | undefined, now: number, streamConnected = true): StatusLine {
  if (!streamConnected) return { kind: 'offline', text: 'Reconnecting to the server…' }
  if (!status || status.type === 'idle') return { kind: 'idle', text: 'Idle' }
  if (status.type === 'busy') return { kind: 'busy', text: 'Working…' }
  if (status.type === 'retry') {
    const s = secondsUntil(status.next, now)
    return {
      kind: 'retry',
      text: `Provider retrying: attempt ${status.attempt}, next try in ${s} s`,
      detail: status.message || undefined,
    }
  }
  return { kind: 'busy', text: 'Working…' }
}

/** Whether a status means a turn is running (Stop is offered, Send queues). */
export function isBusy(status: SessionStatus | undefined): boolean {
  return status !== undefined && status.type !== 'idle'
}
