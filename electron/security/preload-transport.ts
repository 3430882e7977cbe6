/**
 * What the preload hands the page, built from the ipcRenderer it is given so it is tested without
 * Electron. The page gets two functions and nothing else: `invoke` always goes to Retake's one
 * router channel (the page cannot pick an IPC channel), and `on` listeners get the payload only —
 * never Electron's event, whose `sender` is ipcRenderer itself.
 */
import type { HostTransport } from '../../shared/host-transport'

export const INVOKE_CHANNEL = 'retake:invoke'
export const EVENT_CHANNEL = 'retake:event'
export const EXPOSED_NAME = 'retakeHost'

/** The slice of ipcRenderer the transport uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
}

export function createHostTransport(ipc: IpcRendererLike): HostTransport {
  return Object.freeze({
    invoke: (channel: string, input: unknown) => ipc.invoke(INVOKE_CHANNEL, channel, input) as ReturnType<HostTransport['invoke']>,
    on(event: string, listener: (payload: unknown) => void) {
      const handler = (_e: unknown, name: unknown, payload: unknown) => {
        if (name === event) listener(payload)
      }
      ipc.on(EVENT_CHANNEL, handler)
      return () => {
        ipc.removeListener(EVENT_CHANNEL, handler)
      }
    },
  })
}

/** The preload's whole job: one name on the page's window, the transport behind it. */
export function exposeHost(bridge: { exposeInMainWorld(name: string, api: unknown): void }, ipc: IpcRendererLike): void {
  bridge.exposeInMainWorld(EXPOSED_NAME, createHostTransport(ipc))
}
