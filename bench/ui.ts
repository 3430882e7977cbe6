// UI benchmark: Retake (browser mode, --remote) against opencode's own web UI, both in Debian's
// Chromium, both on ONE real opencode server (`opencode web`: it serves its UI and the API Retake
// uses) holding one long session. Prints every figure and the ratio Retake / opencode web.
//
//   npm run bench:ui                  1,000 turns (markdown with code blocks)
//   npm run bench:ui -- --turns 200   another length
//
// Loopback only (any other request is aborted and counted); stops by itself (BENCH_UI_TIMEOUT_S,
// default 900 s). A script, not a test: `npm test` does not run it.
import { spawn, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { fillSession, FIRST_MARKER, LAST_MARKER, SHORT_MARKER, startWorld, stopChild, waitForLine, type BenchWorld } from './ui-server'
import { domCount, heapAfterGc, markScroller, pct, PROBE_SCRIPT, scriptBytes, startRecording, stopRecording, timeToVisible, type Window } from './ui-probe'
import { keyToFirst, NOT_MEASURED, scrollRows, wheelToFirst, type TopResult } from './ui-scroll'

const arg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const TURNS = Number(arg('--turns') ?? 1000)
// `--only retake` (or opencode) and `--no-stream`: a shorter run while working on one side.
const APPS = (arg('--only') ? [arg('--only')] : ['retake', 'opencode']) as App[]
const STREAM = !process.argv.includes('--no-stream')
// The wheel goes on until the first turn shows (Retake's 1,000 turns are ~400,000 px: 1,000+ notches).
const WHEEL = { notch: 400, maxEvents: 4000, maxMs: 240_000 }
const KEYS = { maxEvents: 2000, maxMs: 180_000 }
const TIMEOUT_S = Number(process.env.BENCH_UI_TIMEOUT_S ?? 900)
const STREAM_TOKENS = 1200
const TOKENS_PER_S = 200
// Two tokens per SSE chunk every 10 ms: at one per 5 ms, timer and per-delta overhead held the rate near 125 tok/s.
const TOKENS_PER_CHUNK = 2
const CHROMIUM = process.env.RETAKE_CHROMIUM ?? '/usr/bin/chromium'

type App = 'retake' | 'opencode'
interface Ids {
  long: string
  short: string
}
interface OpenFigures {
  bootMs: number
  switchMs: number
  dom: number
  heap: number
  js: { beforePaint: number; total: number; files: number }
  scroll: TopResult
  home: TopResult
  pageUp: TopResult
}
interface StreamFigures extends Window {
  tokensPerS: number
}

/** Markdown with code blocks, ~STREAM_TOKENS tokens of ~4 characters, ending in `marker`. */
function streamText(marker: string): string {
  const parts: string[] = []
  for (let i = 0; parts.join('\n').length < STREAM_TOKENS * 4 - 200; i++) {
    parts.push(`Step ${i}: we **change** \`handler${i}\` so that errors reach the caller instead of the log.`, '')
    parts.push(
      '```ts',
      `export async function handler${i}(req: Request): Promise<Response> {`,
      `  const body = await req.json()`,
      `  return Response.json({ ok: true, step: ${i}, body })`,
      '}',
      '```',
      '',
    )
  }
  return `${parts.join('\n')}\n\n${marker}`
}

async function startRetake(world: BenchWorld): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'web/cli.ts', '--port', '0', '--data-dir', join(world.root, 'retake-data'), '--remote', world.url, '--project', world.project],
    { cwd: process.cwd(), env: { ...process.env, RETAKE_REMOTE_PASSWORD: world.password }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const m = await waitForLine(proc, /running at (http:\/\/\S+)/, 60_000, 'retake browser mode')
  return { url: m[1]!, proc }
}

async function newPage(browser: Browser, world: BenchWorld, blocked: { n: number }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, httpCredentials: { username: 'opencode', password: world.password } })
  await context.route(/^(?!http:\/\/127\.0\.0\.1[:/])[a-z]+:\/\//, (route) => {
    blocked.n++
    return route.abort()
  })
  await context.addInitScript(PROBE_SCRIPT)
  return context.newPage()
}

const streamEnd = (app: App) => `STREAM-END-${app.toUpperCase()}`
const marker = (page: Page, text: string) => page.getByText(text, { exact: true }).last()

/**
 * Loads the app cold (new context, nothing cached) on the short session (`bootMs`: navigation →
 * its last message visible), then opens the long one (`switchMs`: the loaded app is asked to show
 * it → its last message visible, timed in the page; Retake: a click in its session list; opencode
 * web: a client-side route change, as its own links do). Starting on the short session means
 * neither app has the long one loading already.
 */
async function openSession(app: App, page: Page, world: BenchWorld, retakeUrl: string, ids: Ids, last = LAST_MARKER): Promise<{ bootMs: number; switchMs: number }> {
  const t0 = performance.now()
  if (app === 'opencode') {
    const route = (id: string) => `/server/${Buffer.from(world.url).toString('base64url')}/session/${id}`
    await page.goto(`${world.url}${route(ids.short)}`)
    await marker(page, SHORT_MARKER).waitFor({ state: 'visible', timeout: 60_000 })
    const bootMs = performance.now() - t0
    return { bootMs, switchMs: await timeToVisible(page, { route: route(ids.long) }, last, 120_000) }
  }
  await page.goto(retakeUrl)
  await marker(page, SHORT_MARKER).waitFor({ state: 'visible', timeout: 60_000 })
  const bootMs = performance.now() - t0
  return { bootMs, switchMs: await timeToVisible(page, { click: `[data-testid="session-item"][data-session-id="${ids.long}"] button.session-select` }, last, 120_000) }
}

async function measureOpen(app: App, browser: Browser, world: BenchWorld, retakeUrl: string, ids: Ids, blocked: { n: number }): Promise<OpenFigures> {
  const page = await newPage(browser, world, blocked)
  try {
    const open = await openSession(app, page, world, retakeUrl, ids)
    // Let layout settle (a benchmark may wait; tests may not) before counting what stays.
    await page.waitForTimeout(1000)
    const cdp = await page.context().newCDPSession(page)
    const heap = await heapAfterGc(cdp)
    const dom = await domCount(page)
    const js = await scriptBytes(page)
    if (!(await markScroller(page, LAST_MARKER))) throw new Error(`${app}: no scrolling element around the last message`)
    const scroll = await wheelToFirst(page, FIRST_MARKER, WHEEL)
    return {
      ...open,
      dom,
      heap,
      js,
      scroll,
      home: await byKey(app, 'Home', browser, world, retakeUrl, ids, blocked),
      pageUp: await byKey(app, 'PageUp', browser, world, retakeUrl, ids, blocked),
    }
  } finally {
    await page.context().close()
  }
}

/** A fresh open of the long session, then `key` until the first turn shows. */
async function byKey(app: App, key: 'Home' | 'PageUp', browser: Browser, world: BenchWorld, retakeUrl: string, ids: Ids, blocked: { n: number }): Promise<TopResult> {
  const page = await newPage(browser, world, blocked)
  try {
    await openSession(app, page, world, retakeUrl, ids)
    await page.waitForTimeout(1000)
    if (!(await markScroller(page, LAST_MARKER))) throw new Error(`${app}: no scrolling element around the last message`)
    return await keyToFirst(page, FIRST_MARKER, key, KEYS)
  } finally {
    await page.context().close()
  }
}

/** `last`: the text that ends the long session now (an earlier stream added a turn after the fill). */
async function measureStream(app: App, browser: Browser, world: BenchWorld, retakeUrl: string, ids: Ids, last: string, blocked: { n: number }): Promise<StreamFigures> {
  const page = await newPage(browser, world, blocked)
  try {
    await openSession(app, page, world, retakeUrl, ids, last)
    await page.waitForTimeout(1000)
    const end = streamEnd(app)
    const text = streamText(end)
    const chunks = Math.round(text.length / 4 / TOKENS_PER_CHUNK)
    world.fake.script({ kind: 'text', text, chunks, chunkDelayMs: (1000 / TOKENS_PER_S) * TOKENS_PER_CHUNK })
    const since = await startRecording(page)
    const asked = Date.now()
    await world.client.session.promptAsync({ sessionID: ids.long, parts: [{ type: 'text', text: `Stream an answer (${app})` }] })
    // The rate counts from the moment the fake got the turn (opencode's own preparation of a long
    // history before it is not streaming).
    const request = await world.fake.waitForRequest((r) => r.kind === 'chat' && r.time >= asked, 120_000)
    // The end of the stream is watched from here (the fake's log), not by polling the page: a
    // Playwright text locator polled every frame cost up to 42 ms of the page's own frames.
    while (request.endedAt === undefined && Date.now() - asked < 120_000) await new Promise((r) => setTimeout(r, 50))
    await marker(page, end).waitFor({ state: 'visible', timeout: 120_000 })
    const w = await stopRecording(page, since)
    return { ...w, tokensPerS: (chunks * TOKENS_PER_CHUNK) / ((Date.now() - request.time) / 1000) }
  } finally {
    await page.context().close()
  }
}

const f1 = (n: number) => n.toFixed(1)
const kb = (n: number) => `${(n / 1000).toFixed(0)} kB`
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`
const msf = (n: number) => `${n.toFixed(0)} ms`
const ratio = (a: number, b: number) => (b ? `${(a / b).toFixed(2)}×` : '—')

const NONE = { frames: [], longTasks: [], ms: NaN, tokensPerS: NaN }

const BLANK: OpenFigures = {
  bootMs: NaN,
  switchMs: NaN,
  dom: NaN,
  heap: NaN,
  js: { beforePaint: NaN, total: NaN, files: 0 },
  scroll: NOT_MEASURED,
  home: NOT_MEASURED,
  pageUp: NOT_MEASURED,
}

function table(o: Record<App, OpenFigures>, s: Record<App, StreamFigures>): string[][] {
  const r = o.retake ?? BLANK,
    c = o.opencode ?? BLANK
  const rows: string[][] = [
    [`open the ${TURNS}-turn session → its last message visible`, msf(r.switchMs), msf(c.switchMs), ratio(r.switchMs, c.switchMs)],
    ['cold load → a short session visible', msf(r.bootMs), msf(c.bootMs), ratio(r.bootMs, c.bootMs)],
    ['DOM elements after open', String(r.dom), String(c.dom), ratio(r.dom, c.dom)],
    ['JS heap after open (after GC)', mb(r.heap), mb(c.heap), ratio(r.heap, c.heap)],
    ['JS loaded before first contentful paint (decoded)', kb(r.js.beforePaint), kb(c.js.beforePaint), ratio(r.js.beforePaint, c.js.beforePaint)],
    ['JS loaded by last message visible', `${kb(r.js.total)} (${r.js.files} files)`, `${kb(c.js.total)} (${c.js.files} files)`, ratio(r.js.total, c.js.total)],
  ]
  rows.push(...scrollRows(r, c))
  const sr = s.retake ?? NONE,
    scc = s.opencode ?? NONE
  rows.push([
    `stream ${STREAM_TOKENS} tokens at ${TOKENS_PER_S} tok/s: frame p50 / p95`,
    `${f1(pct(sr.frames, 0.5))} / ${f1(pct(sr.frames, 0.95))} ms`,
    `${f1(pct(scc.frames, 0.5))} / ${f1(pct(scc.frames, 0.95))} ms`,
    ratio(pct(sr.frames, 0.95), pct(scc.frames, 0.95)),
  ])
  rows.push(['  frames > 50 ms', String(sr.frames.filter((x) => x > 50).length), String(scc.frames.filter((x) => x > 50).length), '—'])
  rows.push([
    '  long tasks (count, longest)',
    `${sr.longTasks.length}, ${msf(Math.max(0, ...sr.longTasks))}`,
    `${scc.longTasks.length}, ${msf(Math.max(0, ...scc.longTasks))}`,
    '—',
  ])
  rows.push(['  stream rate seen (tok/s)', f1(sr.tokensPerS), f1(scc.tokensPerS), '—'])
  return rows
}

async function main() {
  const started = Date.now()
  const log = (s: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${s}`)
  let world: BenchWorld | undefined
  let retake: ChildProcess | undefined
  let browser: Browser | undefined
  const cleanup = async () => {
    await browser?.close().catch(() => {})
    if (retake) await stopChild(retake)
    await world?.close()
  }
  const timer = setTimeout(() => {
    console.error(`bench:ui: over ${TIMEOUT_S} s, stopping`)
    void cleanup().finally(() => process.exit(1))
  }, TIMEOUT_S * 1000)
  try {
    world = await startWorld()
    log(`opencode web at ${world.url}; filling ${TURNS} turns`)
    const ids = await fillSession(world, TURNS, log)
    const r = await startRetake(world)
    retake = r.proc
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--enable-precise-memory-info',
      ],
    })
    const blocked = { n: 0 }
    const open = {} as Record<App, OpenFigures>
    const stream = {} as Record<App, StreamFigures>
    for (const app of APPS) {
      log(`${app}: open, measure, scroll, keys`)
      open[app] = await measureOpen(app, browser, world, r.url, ids, blocked)
    }
    let last = LAST_MARKER
    for (const app of STREAM ? APPS : []) {
      log(`${app}: stream`)
      stream[app] = await measureStream(app, browser, world, r.url, ids, last, blocked)
      last = streamEnd(app)
    }
    const rows = table(open, stream)
    const head = ['figure', 'Retake', 'opencode web', 'Retake / opencode']
    const w = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
    const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(w[i]!)).join(' | ') + ' |'
    console.log(`\n${TURNS} turns · opencode 1.18.33 (opencode web) · Chromium ${browser.version()} headless, 1280×800 · ${os.cpus().length} cores · ${new Date().toISOString()}`)
    console.log(`requests off loopback aborted: ${blocked.n}\n`)
    console.log(line(head))
    console.log('|' + w.map((n) => '-'.repeat(n + 2)).join('|') + '|')
    for (const row of rows) console.log(line(row))
  } finally {
    clearTimeout(timer)
    await cleanup()
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
