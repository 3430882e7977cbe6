import type { Envelope } from './ipc-contract'

/**
 * What the desktop preload puts on `window.retakeHost`: envelopes in, events out. The renderer's
 * bridge turns envelopes into values or BridgeErrors the same way for desktop and browser mode.
 */
export interface HostTransport {
  invoke(channel: string, input: unknown): Promise<Envelope<unknown>>
  on(event: string, listener: (payload: unknown) => void): () => void
}
