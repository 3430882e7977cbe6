/**
 * The Electron entry: wiring only. Every decision lives in Electron-free modules (retake-core,
 * security/*, desktop/app-protocol) that are tested in plain Node; this file connects them to
 * Electron's objects.
 */
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell, type IpcMainInvokeEvent } from 'electron'
import { join } from 'node:path'
import { createRetakeCore, type RetakeCore } from './retake-core'
import { readVersions } from './app-paths'
import { createAppProtocolHandler } from './desktop/app-protocol'
import { APP_ENTRY, APP_SCHEME, decidePermission, isAllowedNavigation, isSafeExternalUrl, isTrustedSender, secureWebPreferences } from './security/window-policy'

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
])

let mainWindow: BrowserWindow | null = null
let core: RetakeCore | null = null

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  app.whenReady().then(start)
}

function senderOf(event: IpcMainInvokeEvent) {
  return { frameUrl: event.senderFrame?.url, isMainFrame: event.senderFrame === event.sender.mainFrame }
}

async function start() {
  const appRoot = app.getAppPath()
  const { version, opencodeVersion } = readVersions(appRoot)
  core = createRetakeCore(
    {
      mode: 'desktop',
      dataDir: process.env.RETAKE_DATA_DIR ?? app.getPath('userData'),
      appRoot,
      resourcesPath: app.isPackaged ? process.resourcesPath : undefined,
      version,
      opencodeVersion,
      pickFolder: async () => {
        const r = await dialog.showOpenDialog(mainWindow!, { properties: ['openDirectory', 'createDirectory'] })
        return r.canceled ? null : (r.filePaths[0] ?? null)
      },
      openExternal: async (url) => {
        if (!isSafeExternalUrl(url)) return false
        await shell.openExternal(url)
        return true
      },
      log: (line) => console.error(line),
    },
    (sender) => isTrustedSender(sender as { frameUrl: string | undefined; isMainFrame: boolean }),
  )

  protocol.handle(APP_SCHEME, createAppProtocolHandler(core, join(appRoot, 'dist', 'renderer')))
  ipcMain.handle('retake:invoke', (event, channel: unknown, input: unknown) => core!.dispatch(channel, input, senderOf(event)))

  session.defaultSession.setPermissionRequestHandler((wc, permission, callback) => callback(decidePermission(permission, wc.getURL())))
  session.defaultSession.setPermissionCheckHandler((wc, permission) => decidePermission(permission, wc?.getURL()))

  createWindow()
  core.onEvent('server.status', (status) => mainWindow?.webContents.send('retake:event', 'server.status', status))
  core.start().catch((err) => console.error(`opencode server failed to start: ${(err as Error).message}`))
}

function createWindow() {
  mainWindow = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Retake',
    webPreferences: secureWebPreferences(join(__dirname, 'preload.cjs')),
  })
  mainWindow.once('ready-to-show', () => mainWindow?.show())
  mainWindow.on('closed', () => (mainWindow = null))
  void mainWindow.loadURL(APP_ENTRY)
}

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
})

app.on('window-all-closed', () => app.quit())

let quitting = false
app.on('before-quit', (event) => {
  if (quitting || !core) return
  // Stop the opencode server before the process goes, so it never outlives the app.
  event.preventDefault()
  quitting = true
  void core.stop().finally(() => app.quit())
})
