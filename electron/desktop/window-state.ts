/**
 * The main window's size and position, remembered between launches in `window-state.json` in the
 * data dir. Pure apart from the two file helpers: `clampWindowState` takes the displays' work areas
 * so a window saved on a monitor that is gone (or a smaller resolution) comes back fully reachable.
 */
import { join } from 'node:path'
import { z } from 'zod'
import { readJson, writeFileAtomic } from '../../core/store/json-file'

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export interface WindowState {
  width: number
  height: number
  /** Absent: let the window manager centre the window on the primary display. */
  x?: number
  y?: number
  maximized: boolean
  fullScreen: boolean
}

export const WINDOW_DEFAULTS = { width: 1200, height: 800, minWidth: 720, minHeight: 480 } as const
export const WINDOW_STATE_FILE = 'window-state.json'

/** How much of the window must lie on a display for its saved position to be kept (a title-bar strip). */
const MIN_VISIBLE = { width: 120, height: 48 }

const finite = z.number().finite()
const SavedSchema = z.object({
  width: finite,
  height: finite,
  x: finite.optional(),
  y: finite.optional(),
  maximized: z.boolean().optional(),
  fullScreen: z.boolean().optional(),
})

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return { width: Math.max(0, width), height: Math.max(0, height) }
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi))

/**
 * Turns whatever was saved (possibly nothing, or garbage) into bounds that fit the current displays:
 * the size is kept within the minimum and the largest work area; the position is kept only when a
 * usable part of the window is on some display, and then moved fully inside that display.
 */
export function clampWindowState(saved: unknown, workAreas: readonly Rect[]): WindowState {
  const parsed = SavedSchema.safeParse(saved)
  const base: WindowState = { width: WINDOW_DEFAULTS.width, height: WINDOW_DEFAULTS.height, maximized: false, fullScreen: false }
  const areas = workAreas.filter((a) => a.width > 0 && a.height > 0)
  const maxW = areas.length ? Math.max(...areas.map((a) => a.width)) : Number.POSITIVE_INFINITY
  const maxH = areas.length ? Math.max(...areas.map((a) => a.height)) : Number.POSITIVE_INFINITY
  const fit = (w: number, h: number) => ({
    width: Math.round(clamp(w, WINDOW_DEFAULTS.minWidth, maxW)),
    height: Math.round(clamp(h, WINDOW_DEFAULTS.minHeight, maxH)),
  })
  if (!parsed.success) return { ...base, ...fit(base.width, base.height) }

  const s = parsed.data
  const state: WindowState = { ...fit(s.width, s.height), maximized: s.maximized ?? false, fullScreen: s.fullScreen ?? false }
  if (s.x === undefined || s.y === undefined) return state

  const rect: Rect = { x: s.x, y: s.y, width: state.width, height: state.height }
  // The display showing most of the window is the one it was on.
  let best: Rect | null = null
  let bestArea = 0
  for (const area of areas) {
    const o = overlap(rect, area)
    if (o.width >= MIN_VISIBLE.width && o.height >= MIN_VISIBLE.height && o.width * o.height > bestArea) {
      best = area
      bestArea = o.width * o.height
    }
  }
  if (!best) return state
  const width = Math.min(state.width, best.width)
  const height = Math.min(state.height, best.height)
  return {
    ...state,
    width,
    height,
    x: Math.round(clamp(s.x, best.x, best.x + best.width - width)),
    y: Math.round(clamp(s.y, best.y, best.y + best.height - height)),
  }
}

/** What to save: the normal (not maximized) bounds, so un-maximizing after a restart still works. */
export function windowStateToSave(normalBounds: Rect, maximized: boolean, fullScreen: boolean): WindowState {
  return { ...normalBounds, maximized, fullScreen }
}

export function loadWindowState(dataDir: string, workAreas: readonly Rect[]): WindowState {
  const saved = readJson<unknown>(join(dataDir, WINDOW_STATE_FILE), SavedSchema, null)
  return clampWindowState(saved, workAreas)
}

export function saveWindowState(dataDir: string, state: WindowState): void {
  writeFileAtomic(join(dataDir, WINDOW_STATE_FILE), `${JSON.stringify(state, null, 2)}\n`)
}
