import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { clampWindowState, loadWindowState, saveWindowState, windowStateToSave, WINDOW_STATE_FILE } from '../../../electron/desktop/window-state'
import { formatLogLine, openMainLog } from '../../../electron/desktop/main-log'

const laptop = { x: 0, y: 0, width: 1440, height: 875 }
const right = { x: 1440, y: 0, width: 2560, height: 1415 }

describe('clampWindowState', () => {
  it('uses the defaults for nothing or garbage', () => {
    for (const saved of [null, undefined, 'x', { width: 'wide' }, { width: NaN, height: 1 }]) {
      expect(clampWindowState(saved, [laptop])).toEqual({ width: 1200, height: 800, maximized: false, fullScreen: false })
    }
  })
  it('keeps a window that is fully on a display', () => {
    expect(clampWindowState({ x: 100, y: 50, width: 1000, height: 700, maximized: true }, [laptop])).toEqual({
      x: 100,
      y: 50,
      width: 1000,
      height: 700,
      maximized: true,
      fullScreen: false,
    })
  })
  it('keeps a window on a second monitor', () => {
    expect(clampWindowState({ x: 2000, y: 100, width: 1600, height: 1000 }, [laptop, right])).toMatchObject({ x: 2000, y: 100, width: 1600 })
  })
  it('drops the position when the monitor it was on is gone, so the window manager centres it', () => {
    const s = clampWindowState({ x: 2000, y: 100, width: 1600, height: 1000 }, [laptop])
    expect(s.x).toBeUndefined()
    expect(s.y).toBeUndefined()
    expect(s).toMatchObject({ width: 1440, height: 875 })
  })
  it('pulls a window hanging off the edge fully back onto its display', () => {
    expect(clampWindowState({ x: 1200, y: -30, width: 800, height: 600 }, [laptop])).toMatchObject({ x: 640, y: 0, width: 800, height: 600 })
  })
  it('forgets a position where only a sliver of the window would show', () => {
    expect(clampWindowState({ x: 1400, y: 860, width: 800, height: 600 }, [laptop]).x).toBeUndefined()
  })
  it('never goes below the minimum size or above the largest display', () => {
    expect(clampWindowState({ width: 100, height: 100 }, [laptop])).toMatchObject({ width: 720, height: 480 })
    expect(clampWindowState({ width: 9000, height: 9000 }, [laptop, right])).toMatchObject({ width: 2560, height: 1415 })
  })
  it('fits a big window to the smaller display it is on', () => {
    expect(clampWindowState({ x: 10, y: 10, width: 2000, height: 1300 }, [laptop, right])).toEqual({
      x: 0,
      y: 0,
      width: 1440,
      height: 875,
      maximized: false,
      fullScreen: false,
    })
  })
  it('handles displays left of and above the primary (negative coordinates)', () => {
    const left = { x: -1920, y: -200, width: 1920, height: 1040 }
    expect(clampWindowState({ x: -1800, y: -100, width: 1000, height: 700 }, [laptop, left])).toMatchObject({ x: -1800, y: -100 })
  })
  it('rounds fractional (HiDPI) values', () => {
    expect(clampWindowState({ x: 10.4, y: 10.6, width: 1000.5, height: 700.2 }, [laptop])).toMatchObject({ x: 10, y: 11, width: 1001, height: 700 })
  })
})

describe('window state file', () => {
  let dir: string
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'retake-ws-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('round-trips through window-state.json in the data dir', () => {
    saveWindowState(dir, windowStateToSave({ x: 20, y: 30, width: 900, height: 600 }, true, false))
    expect(JSON.parse(readFileSync(join(dir, WINDOW_STATE_FILE), 'utf8'))).toEqual({ x: 20, y: 30, width: 900, height: 600, maximized: true, fullScreen: false })
    expect(loadWindowState(dir, [laptop])).toEqual({ x: 20, y: 30, width: 900, height: 600, maximized: true, fullScreen: false })
  })
  it('falls back to the defaults when the file is missing or corrupt', () => {
    expect(loadWindowState(dir, [laptop])).toMatchObject({ width: 1200, height: 800 })
    writeFileSync(join(dir, WINDOW_STATE_FILE), '{not json')
    expect(loadWindowState(dir, [laptop])).toMatchObject({ width: 1200, height: 800 })
  })
})

describe('main log', () => {
  let dir: string
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'retake-log-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('timestamps each line and indents continuation lines', () => {
    expect(formatLogLine('boom\nat x', new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678Z boom\n    at x\n')
  })
  it('writes logs/main.log in the data dir and rotates it past the limit', () => {
    const log = openMainLog(dir, { maxBytes: 200, echo: false, now: () => new Date(0) })
    expect(log.file).toBe(join(dir, 'logs', 'main.log'))
    for (let i = 0; i < 20; i++) log.write(`line ${i} ${'x'.repeat(20)}`)
    log.close()
    expect(readdirSync(join(dir, 'logs')).sort()).toEqual(['main.log', 'main.log.1'])
    expect(readFileSync(log.file, 'utf8').length).toBeLessThan(400)
    expect(readFileSync(log.file, 'utf8')).toContain('line 19')
  })
})
