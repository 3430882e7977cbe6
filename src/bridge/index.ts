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

let bridge: RetakeBridge | null = null

export function getBridge(): RetakeBridge {
  if (!bridge) bridge = window.retakeHost ? createIpcBridge(window.retakeHost) : createHttpBridge()
  return bridge
}

/** Replaces the bridge (component tests inject a fake host). */
export function setBridge(next: RetakeBridge | null): void {
  bridge = next
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
