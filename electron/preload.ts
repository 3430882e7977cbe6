/**
 * The preload: one typed facade on `window.retakeHost` through contextBridge. It forwards a channel
 * name and input to the main process's router and returns the result envelope; it never exposes
 * ipcRenderer, the raw event, or anything else of Electron. Bundled as CommonJS so it runs sandboxed.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { HostTransport } from '../src/shared/host-transport'

const transport: HostTransport = {
  invoke: (channel, input) => ipcRenderer.invoke('retake:invoke', channel, input),
  on(event, listener) {
    const handler = (_e: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload)
    }
    ipcRenderer.on('retake:event', handler)
    return () => {
      ipcRenderer.removeListener('retake:event', handler)
    }
  },
}

contextBridge.exposeInMainWorld('retakeHost', transport)
