/**
 * The Electron entry: wiring only. Every decision lives in Electron-free modules (retake-core,
 * security/*, desktop/app-protocol) that are tested in plain Node; this file connects them to
 * Electron's objects.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, screen, session, shell, type IpcMainInvokeEvent } from 'electron'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createRetakeCore, type RetakeCore } from '../core/retake-core'
import { readVersions } from '../core/app-paths'
import { NATIVE_DIR_ENV } from '../core/native-modules'
import { createAppProtocolHandler } from './desktop/app-protocol'
import { logsDir, openMainLog } from './desktop/main-log'
import { aboutDetail, buildMenuTemplate } from './desktop/menu'
import { focusOnSecondInstance } from './desktop/single-instance'
import { loadWindowState, saveWindowState, WINDOW_DEFAULTS, windowStateToSave } from './desktop/window-state'
import { APP_SCHEME_PRIVILEGES, securePermissions } from './security/session-policy'
import { guardWebContents } from './security/web-contents-guards'
import { APP_ENTRY, APP_SCHEME, isSafeExternalUrl, isTrustedSender, secureWebPreferences } from './security/window-policy'

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }])

let mainWindow: BrowserWindow | null = null
let core: RetakeCore | null = null
// userData is known before `ready`; the log opens first so a failed start is on disk for a user.
const dataDir = process.env.RETAKE_DATA_DIR ?? app.getPath('userData')
const mainLog = openMainLog(dataDir)
const log = (line: string) => mainLog.write(line)
process.on('unhandledRejection', (reason) => log(`[main] unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`))

// Windows shows a page's notifications only under the id of the installed Start-menu shortcut
// (electron-builder.yml appId).
if (process.platform === 'win32') app.setAppUserModelId('dev.retake.app')

// The packaged app's native modules (the engine's watcher, extended attributes) are in
// resources/native/, outside the asar; in development they load from node_modules.
if (app.isPackaged) process.env[NATIVE_DIR_ENV] = join(process.resourcesPath, 'native')

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (core) focusOnSecondInstance(mainWindow, createWindow)
  })
  app.whenReady().then(start)
}

function senderOf(event: IpcMainInvokeEvent) {
  return { frameUrl: event.senderFrame?.url, isMainFrame: event.senderFrame === event.sender.mainFrame }
}

async function start() {
  const appRoot = app.getAppPath()
  const { version, opencodeVersion } = readVersions(appRoot)
  log(`[main] Retake ${version} (Electron ${process.versions.electron}, opencode ${opencodeVersion}) packaged=${app.isPackaged} data=${dataDir}`)
  core = createRetakeCore(
    {
      mode: 'desktop',
      dataDir,
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
      log,
    },
    (sender) => isTrustedSender(sender as { frameUrl: string | undefined; isMainFrame: boolean }),
  )

  protocol.handle(APP_SCHEME, createAppProtocolHandler(core, join(appRoot, 'dist', 'renderer')))
  ipcMain.handle('retake:invoke', (event, channel: unknown, input: unknown) => core!.dispatch(channel, input, senderOf(event)))

  securePermissions(session.defaultSession)

  const versions = { retake: version, electron: process.versions.electron, chromium: process.versions.chrome, node: process.versions.node, opencode: opencodeVersion }
  const template = buildMenuTemplate({
    platform: process.platform,
    isDev: !app.isPackaged,
    openLogsFolder: () => {
      mkdirSync(logsDir(dataDir), { recursive: true })
      void shell.openPath(logsDir(dataDir))
    },
    showAbout: () => {
      const options = { type: 'info' as const, title: 'About Retake', message: 'Retake', detail: aboutDetail(versions), buttons: ['OK'] }
      void (mainWindow ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options))
    },
  })
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))

  createWindow()
  core.onAnyEvent((event, payload) => mainWindow?.webContents.send('retake:event', event, payload))
  core.start().catch((err) => log(`[server] opencode server failed to start: ${(err as Error).message}`))
}

function createWindow() {
  const saved = loadWindowState(
    dataDir,
    screen.getAllDisplays().map((d) => d.workArea),
  )
  const win = new BrowserWindow({
    width: saved.width,
    height: saved.height,
    x: saved.x,
    y: saved.y,
    minWidth: WINDOW_DEFAULTS.minWidth,
    minHeight: WINDOW_DEFAULTS.minHeight,
    show: false,
    title: 'Retake',
    webPreferences: secureWebPreferences(join(__dirname, 'preload.cjs')),
  })
  mainWindow = win
  win.once('ready-to-show', () => {
    if (saved.maximized) win.maximize()
    if (saved.fullScreen) win.setFullScreen(true)
    win.show()
  })
  // Saved on close (not on every move): the normal bounds, so a maximized window un-maximizes sensibly.
  win.on('close', () => {
    try {
      saveWindowState(dataDir, windowStateToSave(win.getNormalBounds(), win.isMaximized(), win.isFullScreen()))
    } catch (err) {
      log(`[main] window state not saved: ${(err as Error).message}`)
    }
  })
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null
  })
  void win.loadURL(APP_ENTRY)
}

app.on('web-contents-created', (_event, contents) => guardWebContents(contents, (url) => void shell.openExternal(url)))

app.on('window-all-closed', () => app.quit())

let quitting = false
app.on('before-quit', (event) => {
  if (quitting || !core) return
  // Stop the opencode server before the process goes, so it never outlives the app.
  event.preventDefault()
  quitting = true
  void core.stop().finally(() => {
    mainLog.close()
    app.quit()
  })
})
