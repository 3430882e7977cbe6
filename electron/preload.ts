/**
 * The preload: one typed facade on `window.retakeHost` through contextBridge. It forwards a channel
 * name and input to the main process's router and returns the result envelope; it never exposes
 * ipcRenderer, the raw event, or anything else of Electron (security/preload-transport.ts, tested
 * without Electron). Bundled as CommonJS so it runs sandboxed.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { exposeHost } from './security/preload-transport'

exposeHost(contextBridge, ipcRenderer)
