// Preloaded (`node --require`) by package:check's smoke step: runs the PACKAGED main bundle
// (dist-electron/main.cjs from app.asar) in plain Node with this stand-in for the `electron` module,
// since the Electron runtime is not on this machine. It records what main does — the protocol handler,
// the menu, the server status it sends to the window — as JSON lines on stdout, and quits the way
// Electron does (before-quit, which main uses to stop the opencode server) when stdin says "quit".
'use strict'
const Module = require('node:module')
const { EventEmitter } = require('node:events')

const { RETAKE_SMOKE_APP_DIR: appDir, RETAKE_SMOKE_RESOURCES: resourcesPath, RETAKE_SMOKE_DATA: dataDir } = process.env
if (!appDir || !resourcesPath || !dataDir) throw new Error('package-check.fake-electron: RETAKE_SMOKE_* not set')
process.resourcesPath = resourcesPath

const emit = (type, data) => process.stdout.write(`${JSON.stringify({ type, ...data })}\n`)
const noop = () => {}

const app = Object.assign(new EventEmitter(), {
  isPackaged: true,
  getAppPath: () => appDir,
  getPath: () => dataDir,
  requestSingleInstanceLock: () => true,
  whenReady: () => Promise.resolve(),
  quit() {
    const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) }
    app.emit('before-quit', event)
    if (!event.defaultPrevented) {
      emit('quit', {})
      process.exit(0)
    }
  },
})

class BrowserWindow extends EventEmitter {
  constructor(options) {
    super()
    emit('window', { width: options.width, height: options.height, webPreferences: options.webPreferences })
    this.webContents = Object.assign(new EventEmitter(), { send: (channel, name, payload) => emit('send', { channel, name, payload }) })
  }
  loadURL(url) {
    emit('loadURL', { url })
    return Promise.resolve()
  }
  isDestroyed = () => false
  isMinimized = () => false
  isMaximized = () => false
  isFullScreen = () => false
  isVisible = () => true
  getNormalBounds = () => ({ x: 0, y: 0, width: 1200, height: 800 })
  show = noop
  focus = noop
  restore = noop
  maximize = noop
  setFullScreen = noop
}

const fake = {
  app,
  BrowserWindow,
  protocol: {
    registerSchemesAsPrivileged: (schemes) => emit('schemes', { schemes }),
    handle: (scheme, handler) => {
      globalThis.__retakeProtocol = handler
      emit('protocol', { scheme })
    },
  },
  ipcMain: { handle: (channel) => emit('ipc', { channel }) },
  session: { defaultSession: { setPermissionRequestHandler: noop, setPermissionCheckHandler: noop } },
  Menu: { buildFromTemplate: (t) => t, setApplicationMenu: (t) => emit('menu', { labels: t.map((m) => m.label) }) },
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  dialog: { showOpenDialog: async () => ({ canceled: true, filePaths: [] }), showMessageBox: async () => ({ response: 0 }) },
  shell: { openExternal: async () => {}, openPath: async () => '' },
}

const resolve = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  return request === 'electron' ? 'retake-fake-electron' : resolve.call(this, request, ...rest)
}
require.cache['retake-fake-electron'] = { id: 'retake-fake-electron', filename: 'retake-fake-electron', loaded: true, exports: fake }

// The parent asks for app:// requests and the quit over stdin, one JSON line each.
let buffered = ''
process.stdin.on('data', (chunk) => {
  buffered += chunk
  let nl
  while ((nl = buffered.indexOf('\n')) >= 0) {
    const msg = JSON.parse(buffered.slice(0, nl))
    buffered = buffered.slice(nl + 1)
    if (msg.type === 'quit') app.quit()
    if (msg.type === 'fetch') {
      globalThis.__retakeProtocol(new Request(msg.url)).then(
        async (res) => emit('response', { url: msg.url, status: res.status, csp: res.headers.get('content-security-policy'), body: (await res.text()).slice(0, 200) }),
        (err) => emit('response', { url: msg.url, error: String(err) }),
      )
    }
  }
})
