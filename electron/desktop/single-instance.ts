/**
 * What a second launch does: Retake runs once per user (two copies would fight over the data dir and
 * each start an opencode server), so the second process quits and the first brings its window back.
 */

/** The part of a BrowserWindow this needs, so the decision is tested without Electron. */
export interface FocusableWindow {
  isDestroyed(): boolean
  isMinimized(): boolean
  restore(): void
  isVisible(): boolean
  show(): void
  focus(): void
}

/** Restores, shows and focuses the existing window, or opens one if there is none (macOS keeps running). */
export function focusOnSecondInstance(win: FocusableWindow | null, createWindow: () => void): 'focused' | 'created' {
  if (!win || win.isDestroyed()) {
    createWindow()
    return 'created'
  }
  if (win.isMinimized()) win.restore()
  if (!win.isVisible()) win.show()
  win.focus()
  return 'focused'
}
