/**
 * The renderer's single way to reach its host. In the desktop app the preload has put the facade on
 * `window.retake` (contextBridge); in a browser there is none and the HTTP bridge is used.
 */
import type { RetakeBridge } from '../shared/ipc-contract'
import { OPENCODE_PROXY_PATH } from '../shared/ipc-contract'
import { createHttpBridge } from './http-bridge'

declare global {
  interface Window {
    retake?: RetakeBridge
  }
}

let bridge: RetakeBridge | null = null

export function getBridge(): RetakeBridge {
  if (!bridge) bridge = window.retake ?? createHttpBridge()
  return bridge
}

/** Base URL of the opencode proxy; the host adds the server's credentials, the renderer never sees them. */
export function opencodeBaseUrl(): string {
  return `${window.location.origin}${OPENCODE_PROXY_PATH}`
}

export { BridgeError } from './bridge-error'
