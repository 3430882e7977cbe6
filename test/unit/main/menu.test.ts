import { describe, expect, it, vi } from 'vitest'
import type { MenuItemConstructorOptions } from 'electron'
import { aboutDetail, buildMenuTemplate } from '../../../electron/desktop/menu'
import { focusOnSecondInstance, type FocusableWindow } from '../../../electron/desktop/single-instance'

function make(platform: NodeJS.Platform, isDev = false) {
  const openLogsFolder = vi.fn()
  const showAbout = vi.fn()
  return { template: buildMenuTemplate({ platform, isDev, openLogsFolder, showAbout }), openLogsFolder, showAbout }
}

const items = (m: MenuItemConstructorOptions) => m.submenu as MenuItemConstructorOptions[]
const labels = (t: MenuItemConstructorOptions[]) => t.map((m) => m.label?.replace('&', ''))
const roles = (m: MenuItemConstructorOptions) =>
  items(m)
    .map((i) => i.role)
    .filter(Boolean)
const find = (t: MenuItemConstructorOptions[], label: string) => t.find((m) => m.label?.replace('&', '') === label)!
const click = (item: MenuItemConstructorOptions) => (item.click as unknown as () => void)()

describe('buildMenuTemplate', () => {
  it('Windows/Linux: File, Edit, View, Window, Help with access keys', () => {
    const { template } = make('linux')
    expect(labels(template)).toEqual(['File', 'Edit', 'View', 'Window', 'Help'])
    expect(template[0].label).toBe('&File')
    expect(roles(find(template, 'File'))).toEqual(['quit'])
  })
  it('macOS: the app menu first, named Retake, with About, hide and quit', () => {
    const { template, showAbout } = make('darwin')
    expect(labels(template)).toEqual(['Retake', 'Edit', 'View', 'Window', 'Help'])
    const appItems = items(template[0])
    expect(appItems[0].label).toBe('About Retake')
    expect(roles(template[0])).toEqual(['services', 'hide', 'hideOthers', 'unhide', 'quit'])
    click(appItems[0])
    expect(showAbout).toHaveBeenCalledOnce()
  })
  it('Edit has the standard clipboard roles, so shortcuts work in text fields', () => {
    expect(roles(find(make('win32').template, 'Edit'))).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'delete', 'selectAll'])
    expect(roles(find(make('darwin').template, 'Edit'))).toContain('pasteAndMatchStyle')
  })
  it('View offers developer tools only in development', () => {
    expect(roles(find(make('linux', false).template, 'View'))).not.toContain('toggleDevTools')
    expect(roles(find(make('linux', false).template, 'View'))).toEqual(['reload', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen'])
    expect(roles(find(make('linux', true).template, 'View'))).toContain('toggleDevTools')
  })
  it('Window uses the window role and platform items', () => {
    expect(find(make('linux').template, 'Window').role).toBe('window')
    expect(roles(find(make('linux').template, 'Window'))).toEqual(['minimize', 'close'])
    expect(roles(find(make('darwin').template, 'Window'))).toEqual(['minimize', 'zoom', 'front'])
  })
  it('Help opens the logs folder and (off macOS) shows About, through the injected callbacks', () => {
    const { template, openLogsFolder, showAbout } = make('win32')
    const help = items(find(template, 'Help'))
    expect(help.map((i) => i.label).filter(Boolean)).toEqual(['Open Logs Folder', 'About Retake'])
    click(help[0])
    click(help.find((i) => i.label === 'About Retake')!)
    expect(openLogsFolder).toHaveBeenCalledOnce()
    expect(showAbout).toHaveBeenCalledOnce()
  })
  it('is plain data: no Electron objects, every submenu an array', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const { template } = make(platform, true)
      expect(() => JSON.stringify(template)).not.toThrow()
      for (const m of template) expect(Array.isArray(m.submenu)).toBe(true)
    }
  })
})

describe('aboutDetail', () => {
  it('lists Retake, Electron, Chromium, Node.js and opencode versions', () => {
    const text = aboutDetail({ retake: '0.1.0', electron: '45.4.1', chromium: '140.0.1', node: '22.1.0', opencode: '1.18.33' })
    expect(text.split('\n')).toEqual(['Retake 0.1.0', 'Electron 45.4.1', 'Chromium 140.0.1', 'Node.js 22.1.0', 'opencode 1.18.33'])
  })
})

describe('focusOnSecondInstance', () => {
  function fakeWindow(state: { minimized?: boolean; visible?: boolean; destroyed?: boolean }) {
    const calls: string[] = []
    const win: FocusableWindow = {
      isDestroyed: () => state.destroyed ?? false,
      isMinimized: () => state.minimized ?? false,
      isVisible: () => state.visible ?? true,
      restore: () => calls.push('restore'),
      show: () => calls.push('show'),
      focus: () => calls.push('focus'),
    }
    return { win, calls }
  }
  it('restores a minimized window and focuses it', () => {
    const { win, calls } = fakeWindow({ minimized: true })
    expect(focusOnSecondInstance(win, () => calls.push('create'))).toBe('focused')
    expect(calls).toEqual(['restore', 'focus'])
  })
  it('shows a hidden window before focusing', () => {
    const { win, calls } = fakeWindow({ visible: false })
    focusOnSecondInstance(win, () => calls.push('create'))
    expect(calls).toEqual(['show', 'focus'])
  })
  it('opens a window when there is none or it was destroyed', () => {
    const create = vi.fn()
    expect(focusOnSecondInstance(null, create)).toBe('created')
    expect(focusOnSecondInstance(fakeWindow({ destroyed: true }).win, create)).toBe('created')
    expect(create).toHaveBeenCalledTimes(2)
  })
})
