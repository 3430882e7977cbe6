// What the UI benchmark measures inside the page, the same way for both apps: frames (deltas between
// requestAnimationFrame callbacks), long tasks (PerformanceObserver), the JS heap after a GC (CDP),
// the DOM size, the scripts loaded before first paint, and a wheel scroll towards the top.
import type { CDPSession, Page } from 'playwright-core'

/** Installed before any page script runs: long tasks from the start, frames while recording. */
export const PROBE_SCRIPT = `(() => {
  const probe = { longTasks: [], frames: [], recording: false, last: 0 }
  window.__benchProbe = probe
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration })
    }).observe({ type: 'longtask', buffered: true })
  } catch {}
  const tick = (t) => {
    if (probe.recording) {
      if (probe.last) probe.frames.push(t - probe.last)
      probe.last = t
    }
    requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
})()`

export interface Window {
  frames: number[]
  longTasks: number[]
  ms: number
}

export async function startRecording(page: Page): Promise<number> {
  return page.evaluate(() => {
    const p = (window as any).__benchProbe
    p.frames = []
    p.last = 0
    p.recording = true
    return performance.now()
  })
}

/** Frames and the long tasks that started since `since` (page time). */
export async function stopRecording(page: Page, since: number): Promise<Window> {
  return page.evaluate((since) => {
    const p = (window as any).__benchProbe
    p.recording = false
    const now = performance.now()
    return {
      frames: p.frames.slice(),
      longTasks: p.longTasks.filter((t: { start: number }) => t.start >= since).map((t: { duration: number }) => t.duration),
      ms: now - since,
    }
  }, since)
}

export const pct = (xs: number[], q: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]! : NaN)

/** JS heap in use after a full GC, from the DevTools protocol (performance.memory is coarse). */
export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('Performance.enable')
  const { metrics } = await cdp.send('Performance.getMetrics')
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN
}

export async function domCount(page: Page): Promise<number> {
  return page.evaluate(() => document.getElementsByTagName('*').length)
}

/**
 * Bytes of script (decoded: minified, before gzip) whose response ended before the first contentful
 * paint, and all script so far. First contentful, not first paint: opencode web paints a background
 * colour from its HTML before any script, which would count nothing.
 */
export async function scriptBytes(page: Page): Promise<{ beforePaint: number; total: number; files: number }> {
  // No named helpers inside: tsx would wrap them in a __name() the page does not have.
  return page.evaluate(() => {
    const fp = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint')?.startTime ?? Infinity
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((r) => /\.m?js(\?|$)/.test(new URL(r.name).pathname))
      .map((r) => ({ end: r.responseEnd, bytes: r.decodedBodySize || r.encodedBodySize || r.transferSize }))
    return {
      beforePaint: scripts.filter((r) => r.end <= fp).reduce((n, r) => n + r.bytes, 0),
      total: scripts.reduce((n, r) => n + r.bytes, 0),
      files: scripts.length,
    }
  })
}

/** Marks the scrolling ancestor of the last element whose own text is `marker` (data-bench-scroller). */
export async function markScroller(page: Page, marker: string): Promise<boolean> {
  return page.evaluate((marker) => {
    const all = [...document.querySelectorAll('p, div, span')].filter((e) => e.textContent?.trim() === marker)
    let el: HTMLElement | null = (all.at(-1) as HTMLElement) ?? null
    while (el && el !== document.body) {
      const oy = getComputedStyle(el).overflowY
      if ((oy === 'auto' || oy === 'scroll') && el.scrollHeight > el.clientHeight) {
        el.setAttribute('data-bench-scroller', '')
        return true
      }
      el = el.parentElement
    }
    return false
  }, marker)
}

export interface ScrollResult extends Window {
  sent: number
  moved: number
  events: number
  reachedTop: boolean
}

/**
 * Wheels up over the scroller, one notch per frame, until its scrollTop is 0 or `maxEvents` notches
 * were sent. `moved` sums only upward movement (an app that prepends older messages and shifts
 * scrollTop down to keep the view steady is not counted as moving back).
 */
export async function wheelToTop(page: Page, notch: number, maxEvents: number): Promise<ScrollResult> {
  const box = await page.locator('[data-bench-scroller]').boundingBox()
  if (!box) throw new Error('no scroller')
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.evaluate(() => {
    const el = document.querySelector('[data-bench-scroller]')!
    const w = window as any
    w.__benchMoved = 0
    w.__benchTop = el.scrollTop
    el.addEventListener('scroll', () => {
      const d = w.__benchTop - el.scrollTop
      if (d > 0) w.__benchMoved += d
      w.__benchTop = el.scrollTop
    })
  })
  const since = await startRecording(page)
  let events = 0
  let top = Infinity
  while (events < maxEvents && top > 0) {
    await page.mouse.wheel(0, -notch)
    events++
    top = await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(() => r(document.querySelector('[data-bench-scroller]')!.scrollTop))))
  }
  const w = await stopRecording(page, since)
  const moved = await page.evaluate(() => (window as any).__benchMoved as number)
  return { ...w, sent: events * notch, moved, events, reachedTop: top <= 0 }
}

/**
 * Page time from an action (a DOM click on `click`, or a client-side route change to `route`) to
 * the first animation frame in which an element whose own text is `marker` is inside the viewport.
 * Measured in the page: Playwright's click and waitFor add their own round trips (80–200 ms seen).
 */
export async function timeToVisible(page: Page, action: { click: string } | { route: string }, marker: string, timeoutMs: number): Promise<number> {
  // One loop, no named helpers inside: tsx would wrap them in a __name() the page does not have.
  return page.evaluate(
    async ({ action, marker, timeoutMs }) => {
      const xpath = `//*[normalize-space(text())='${marker}']`
      const t0 = performance.now()
      if ('click' in action) (document.querySelector(action.click) as HTMLElement).click()
      else {
        history.pushState(null, '', action.route)
        dispatchEvent(new PopStateEvent('popstate'))
      }
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r))
        const found = document.evaluate(xpath, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null)
        for (let i = 0; i < found.snapshotLength; i++) {
          const r = (found.snapshotItem(i) as Element).getBoundingClientRect()
          if (r.height > 0 && r.bottom > 0 && r.top < innerHeight) return performance.now() - t0
        }
        if (performance.now() - t0 > timeoutMs) throw new Error(`${marker} not visible after ${timeoutMs} ms`)
      }
    },
    { action, marker, timeoutMs },
  )
}
