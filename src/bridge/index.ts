/**
 * The renderer's single way to reach its host. In the desktop app the preload has put a transport on
 * `window.retakeHost` (contextBridge); in a browser there is none and the HTTP bridge is used.
 */
import type { ChannelName, Envelope, EventName, RetakeBridge } from '../../shared/ipc-contract'
import { OPENCODE_PROXY_PATH } from '../../shared/opencode-proxy-path'
import type { HostTransport } from '../../shared/host-transport'
import { BridgeError } from './bridge-error'
import { createHttpBridge } from './http-bridge'

declare global {
  interface Window {
    retakeHost?: HostTransport
  }
}

/**
 * The preload's transport, read once as this module loads — before any model text is in the page.
 * Read later, `window.retakeHost` could be an element a model named `retakeHost` (DOM clobbering:
 * named elements show up as window properties when no real one exists, as in browser mode).
 */
const host: HostTransport | undefined = window.retakeHost
let desktop = host !== undefined
let bridge: RetakeBridge | null = null

export function getBridge(): RetakeBridge {
  if (!bridge) bridge = host ? createIpcBridge(host) : createHttpBridge()
  return bridge
}

/** True in the desktop app (the host opens links in the system browser), false in browser mode. */
export function isDesktop(): boolean {
  return desktop
}

/** Replaces the bridge (component tests inject a fake host, and say whether it is the desktop's). */
export function setBridge(next: RetakeBridge | null, desktopHost = host !== undefined): void {
  bridge = next
  desktop = desktopHost
}

export function createIpcBridge(transport: HostTransport): RetakeBridge {
  return {
    async invoke(channel: ChannelName, input: unknown) {
      const envelope = (await transport.invoke(channel, input ?? {})) as Envelope<unknown>
      if (!envelope.ok) throw new BridgeError(envelope.error.code, envelope.error.message)
      return envelope.data as never
    },
    on(event: EventName, listener: (payload: never) => void) {
      return transport.on(event, listener as (payload: unknown) => void)
    },
  } as RetakeBridge
}

/** Base URL of the opencode proxy; the host adds the server's credentials, the renderer never sees them. */
export function opencodeBaseUrl(): string {
  return `${window.location.origin}${OPENCODE_PROXY_PATH}`
}

export { BridgeError } from './bridge-error'
export { hostPresence, onHostPresence } from './host-presence'
