/**
 * The application menu as a plain template: Edit, View, Window and Help (plus the app menu on macOS
 * and File on Windows/Linux), with the actions that are Retake's own passed in as callbacks. main.ts
 * only hands the result to Menu.buildFromTemplate, so the menu is tested without Electron.
 */
import type { MenuItemConstructorOptions } from 'electron'

export interface AboutVersions {
  retake: string
  electron: string
  chromium: string
  node: string
  /** The pinned version, or what the running binary answered. */
  opencode: string
}

export interface MenuOptions {
  platform: NodeJS.Platform
  /** Developer tools only in development: a packaged app gives no console to paste code into. */
  isDev: boolean
  openLogsFolder: () => void
  showAbout: () => void
}

/** The About box's text: every version a bug report needs. */
export function aboutDetail(v: AboutVersions): string {
  return [`Retake ${v.retake}`, `Electron ${v.electron}`, `Chromium ${v.chromium}`, `Node.js ${v.node}`, `opencode ${v.opencode}`].join('\n')
}

export function buildMenuTemplate(opts: MenuOptions): MenuItemConstructorOptions[] {
  const mac = opts.platform === 'darwin'
  const sep: MenuItemConstructorOptions = { type: 'separator' }
  const about: MenuItemConstructorOptions = { label: 'About Retake', click: () => opts.showAbout() }

  const appMenu: MenuItemConstructorOptions = {
    label: 'Retake',
    submenu: [about, sep, { role: 'services' }, sep, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, sep, { role: 'quit' }],
  }
  const fileMenu: MenuItemConstructorOptions = { label: '&File', submenu: [{ role: 'quit' }] }
  const editMenu: MenuItemConstructorOptions = {
    label: mac ? 'Edit' : '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      sep,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      sep,
      { role: 'selectAll' },
    ],
  }
  const viewMenu: MenuItemConstructorOptions = {
    label: mac ? 'View' : '&View',
    submenu: [
      { role: 'reload' },
      ...(opts.isDev ? [{ role: 'forceReload' } as const, { role: 'toggleDevTools' } as const] : []),
      sep,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      sep,
      { role: 'togglefullscreen' },
    ],
  }
  const windowMenu: MenuItemConstructorOptions = {
    label: mac ? 'Window' : '&Window',
    role: 'window',
    submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, sep, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  }
  const helpMenu: MenuItemConstructorOptions = {
    label: mac ? 'Help' : '&Help',
    role: 'help',
    submenu: [{ label: 'Open Logs Folder', click: () => opts.openLogsFolder() }, ...(mac ? [] : [sep, about])],
  }
  return mac ? [appMenu, editMenu, viewMenu, windowMenu, helpMenu] : [fileMenu, editMenu, viewMenu, windowMenu, helpMenu]
}
