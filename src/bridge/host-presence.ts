/**
 * Whether the browser-mode host that served this tab is still there. Each run of browser mode has
 * an origin of its own (web/host.ts), so once the host process is gone this tab can never reach a
 * later run: it can only say so, and tell the user how to start Retake again. The desktop app's host
 * is the window's own process, so there it never goes.
 */

/** What one look at the host found. */
export type HostProbe = 'up' | 'unreachable' | 'refused'

export type HostPresence = 'up' | 'gone'

/**
 * A probe's meaning: a host that answers is up; no answer at all means the process went away
 * (the tab's origin names only that process); a refusal (401 / 421) means another process now
 * holds the port, which never serves this tab's origin.
 */
export function presenceAfter(probe: HostProbe): HostPresence {
  return probe === 'up' ? 'up' : 'gone'
}

/** The HTTP statuses with which a later process on the port refuses this tab (host-auth.ts). */
export function isRefusal(status: number): boolean {
  return status === 401 || status === 421
}

type Listener = (presence: HostPresence) => void

let presence: HostPresence = 'up'
const listeners = new Set<Listener>()

export function hostPresence(): HostPresence {
  return presence
}

export function setHostPresence(next: HostPresence): void {
  if (next === presence) return
  presence = next
  listeners.forEach((l) => l(next))
}

export function onHostPresence(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
