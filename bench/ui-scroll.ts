// Reaching the top of a long session, the same way for both apps: by wheel until the FIRST turn is
// on screen (not merely scrollTop 0: Retake loads older windows as the reader nears the top, so a
// scrollTop of 0 can be the top of a window, not of the session), and by keyboard (Home, PageUp).
// Retake's row estimates are checked against the rows it measured on the way (PROBE_SCRIPT's
// __retakeRows, filled by the Timeline only when a page asks for it).
import type { Page } from 'playwright-core'
import { pct, startRecording, stopRecording, type Window } from './ui-probe'

export interface TopResult extends Window {
  /** The first turn is in the viewport and the app has nothing older left to load. */
  reachedTop: boolean
  /** Page time from the first input to the frame the first turn was visible (NaN: never). */
  firstVisibleMs: number
  /** Notches or key presses sent. */
  events: number
  sent: number
  moved: number
  /** Retake: the transcript's height when the whole session was first in its window, and at the top. */
  heightFull: number
  heightTop: number
  /** Retake: |estimate − measured| / measured over the rows measured on the way. */
  estimate: { rows: number; median: number; p90: number }
}

/** Installs the scroll listener (upward distance, the height once the session is whole) and resets the row log. */
async function watchScroller(page: Page): Promise<void> {
  await page.evaluate(() => {
    const el = document.querySelector('[data-bench-scroller]')!
    const w = window as any
    w.__benchMoved = 0
    w.__benchTop = el.scrollTop
    w.__benchFull = 0
    w.__retakeRows = []
    // Assigned, not declared: tsx would wrap a named function in a __name() the page does not have.
    w.__benchOnScroll = () => {
      const d = w.__benchTop - el.scrollTop
      if (d > 0) w.__benchMoved += d
      w.__benchTop = el.scrollTop
      if (!w.__benchFull && el.getAttribute('data-has-older') === 'false') w.__benchFull = el.scrollHeight
    }
    el.addEventListener('scroll', w.__benchOnScroll)
  })
}

/**
 * One animation frame later: is the first turn in the viewport, is anything older left to load
 * (Retake says so on its scroller; an app that does not is taken at its word when scrollTop is 0).
 */
async function state(page: Page, first: string): Promise<{ top: number; visible: boolean; whole: boolean }> {
  return page.evaluate(
    (first) =>
      new Promise<{ top: number; visible: boolean; whole: boolean }>((resolve) =>
        requestAnimationFrame(() => {
          const el = document.querySelector('[data-bench-scroller]')!
          const found = document.evaluate(`//*[normalize-space(text())='${first}']`, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null)
          let visible = false
          for (let i = 0; i < found.snapshotLength && !visible; i++) {
            const r = (found.snapshotItem(i) as Element).getBoundingClientRect()
            visible = r.height > 0 && r.bottom > 0 && r.top < innerHeight
          }
          resolve({ top: el.scrollTop, visible, whole: el.getAttribute('data-has-older') !== 'true' })
        }),
      ),
    first,
  )
}

async function finish(page: Page, since: number, base: Omit<TopResult, keyof Window | 'moved' | 'heightFull' | 'heightTop' | 'estimate'>): Promise<TopResult> {
  const w = await stopRecording(page, since)
  const probe = await page.evaluate(() => {
    const win = window as any
    const el = document.querySelector('[data-bench-scroller]')!
    el.removeEventListener('scroll', win.__benchOnScroll)
    const rows = (win.__retakeRows ?? []) as { id: string; estimate: number; measured: number }[]
    // The first measurement of each row: later ones are the same row re-rendered.
    const seen = new Set<string>()
    const errors: number[] = []
    for (const r of rows) {
      if (seen.has(r.id) || r.measured <= 0) continue
      seen.add(r.id)
      errors.push(Math.abs(r.estimate - r.measured) / r.measured)
    }
    return { moved: win.__benchMoved as number, full: win.__benchFull as number, height: el.scrollHeight, errors }
  })
  return {
    ...w,
    ...base,
    moved: probe.moved,
    heightFull: probe.full,
    heightTop: probe.height,
    estimate: { rows: probe.errors.length, median: pct(probe.errors, 0.5), p90: pct(probe.errors, 0.9) },
  }
}

/**
 * Wheels up over the scroller, one `notch` per frame, until the first turn is visible with nothing
 * older left, or scrollTop has stayed 0 for `stuckAfter` notches (the app shows no more), or
 * `maxEvents` notches / `maxMs` went by.
 */
export async function wheelToFirst(page: Page, first: string, opts: { notch: number; maxEvents: number; maxMs: number; stuckAfter?: number }): Promise<TopResult> {
  const box = await page.locator('[data-bench-scroller]').boundingBox()
  if (!box) throw new Error('no scroller')
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await watchScroller(page)
  const since = await startRecording(page)
  const t0 = Date.now()
  let events = 0
  let atZero = 0
  let zeroAt = 0
  let firstVisibleMs = NaN
  let reachedTop = false
  while (events < opts.maxEvents && Date.now() - t0 < opts.maxMs) {
    await page.mouse.wheel(0, -opts.notch)
    events++
    const s = await state(page, first)
    if (s.visible && Number.isNaN(firstVisibleMs)) firstVisibleMs = (await page.evaluate(() => performance.now())) - since
    if (s.visible && s.whole && s.top <= 0) {
      reachedTop = true
      break
    }
    if (s.top > 0) atZero = 0
    else if (atZero++ === 0) zeroAt = await page.evaluate(() => performance.now())
    if (atZero >= (opts.stuckAfter ?? 30)) break
  }
  const r = await finish(page, since, { reachedTop, firstVisibleMs, events, sent: events * opts.notch })
  // Stopped at an app's own top (it shows no more): the time is until it got there, not the wait after.
  return !reachedTop && atZero > 0 ? { ...r, ms: zeroAt - since } : r
}

/**
 * Focuses the scroller and presses `key` (Home: once, then waits; PageUp: again every frame) until
 * the first turn is visible with nothing older left, or `maxEvents` presses / `maxMs` went by.
 * `firstVisibleMs` counts from the first keydown the page saw.
 */
export async function keyToFirst(page: Page, first: string, key: 'Home' | 'PageUp', opts: { maxEvents: number; maxMs: number }): Promise<TopResult> {
  await page.evaluate(() => {
    const el = document.querySelector('[data-bench-scroller]') as HTMLElement
    // A keyboard user reaches the conversation with Tab; focusing it directly is the same place.
    if (!el.hasAttribute('tabindex')) el.tabIndex = -1
    el.focus()
  })
  await watchScroller(page)
  const since = await startRecording(page)
  const t0 = Date.now()
  let events = 0
  let still = 0
  let stillAt = 0
  let lastTop = NaN
  let firstVisibleMs = NaN
  let reachedTop = false
  while (Date.now() - t0 < opts.maxMs) {
    if (events < opts.maxEvents && (key === 'PageUp' || events === 0)) {
      await page.keyboard.press(key)
      events++
    }
    const s = await state(page, first)
    if (s.visible && s.whole && s.top <= 0) {
      firstVisibleMs = (await page.evaluate(() => performance.now())) - since
      reachedTop = true
      break
    }
    if (events >= opts.maxEvents && key === 'PageUp') break
    // The view has not moved for 60 frames and the first turn is not shown: the app's own top (opencode
    // web shows its latest turns only) or a key it does not act on.
    if (s.top === lastTop && s.whole) {
      if (still++ === 0) stillAt = await page.evaluate(() => performance.now())
    } else still = 0
    lastTop = s.top
    if (still >= 60) break
  }
  const r = await finish(page, since, { reachedTop, firstVisibleMs, events, sent: 0 })
  // Stopped where the app stays: the time is until it got there, not the wait after.
  return !reachedTop && still > 0 ? { ...r, ms: stillAt - since } : r
}

const f1 = (n: number) => n.toFixed(1)
const ms = (n: number) => `${n.toFixed(0)} ms`
const pc = (n: number) => `${(n * 100).toFixed(1)} %`

/** An app not measured in this run (`--only`): every figure NaN. */
export const NOT_MEASURED: TopResult = {
  frames: [],
  longTasks: [],
  ms: NaN,
  reachedTop: false,
  firstVisibleMs: NaN,
  events: 0,
  sent: NaN,
  moved: NaN,
  heightFull: NaN,
  heightTop: NaN,
  estimate: { rows: 0, median: NaN, p90: NaN },
}

/** The table's rows for the wheel, Home and PageUp, Retake (`r`) against opencode web (`c`). */
export function scrollRows(r: { scroll: TopResult; home: TopResult; pageUp: TopResult }, c: { scroll: TopResult; home: TopResult; pageUp: TopResult }): string[][] {
  const ratio = (a: number, b: number) => (b ? `${(a / b).toFixed(2)}×` : '—')
  const end = (x: TopResult, unit: string) => `${ms(x.ms)}, ${x.events} ${unit}, ${x.reachedTop ? 'first turn' : 'not the first turn'}`
  const frames = (x: TopResult) => `${f1(pct(x.frames, 0.5))} / ${f1(pct(x.frames, 0.95))} ms`
  const long = (x: TopResult) => `${x.longTasks.length}, ${ms(Math.max(0, ...x.longTasks))}`
  const rows: string[][] = [
    ['wheel to the top (400 px notches, one a frame)', end(r.scroll, 'notches'), end(c.scroll, 'notches'), ratio(r.scroll.ms, c.scroll.ms)],
    ['  frame p50 / p95', frames(r.scroll), frames(c.scroll), ratio(pct(r.scroll.frames, 0.95), pct(c.scroll.frames, 0.95))],
    ['  long tasks (count, longest)', long(r.scroll), long(c.scroll), '—'],
    [
      '  distance moved / sent',
      `${r.scroll.moved.toFixed(0)} / ${r.scroll.sent} px`,
      `${c.scroll.moved.toFixed(0)} / ${c.scroll.sent} px`,
      ratio(r.scroll.moved / r.scroll.sent, c.scroll.moved / c.scroll.sent),
    ],
    ['  row estimate error, median / p90 (rows)', `${pc(r.scroll.estimate.median)} / ${pc(r.scroll.estimate.p90)} (${r.scroll.estimate.rows})`, '—', '—'],
    [
      '  transcript height: whole session loaded → top',
      `${r.scroll.heightFull} → ${r.scroll.heightTop} px (${pc((r.scroll.heightTop - r.scroll.heightFull) / r.scroll.heightFull)})`,
      '—',
      '—',
    ],
    ['Home → first turn visible', end(r.home, 'press'), end(c.home, 'press'), ratio(r.home.ms, c.home.ms)],
    ['  frame p95, long tasks (count, longest)', `${f1(pct(r.home.frames, 0.95))} ms, ${long(r.home)}`, `${f1(pct(c.home.frames, 0.95))} ms, ${long(c.home)}`, '—'],
    ['PageUp to the first turn', end(r.pageUp, 'presses'), end(c.pageUp, 'presses'), ratio(r.pageUp.ms, c.pageUp.ms)],
    ['  frame p95, long tasks (count, longest)', `${f1(pct(r.pageUp.frames, 0.95))} ms, ${long(r.pageUp)}`, `${f1(pct(c.pageUp.frames, 0.95))} ms, ${long(c.pageUp)}`, '—'],
  ]
  return rows
}
