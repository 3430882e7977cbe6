/**
 * End-to-end harness: the fake LLM, a fresh data dir and project per test, browser mode started
 * through its real command line (`web/cli.ts`), and Debian's Chromium driven by
 * playwright-core. Tests wait on state (`data-app-state`, roles, test ids), never on sleeps; a failing
 * test leaves a screenshot in test-results/.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm'
import { isolatedOpencodeEnv, makeOpencodeConfig } from '../support/opencode-config'

export const CHROMIUM = process.env.RETAKE_CHROMIUM ?? '/usr/bin/chromium'

export interface AppUnderTest {
  fake: FakeLlm
  root: string
  project: string
  dataDir: string
  url: string
  origin: string
  browser: Browser
  context: BrowserContext
  page: Page
  /** Everything the host printed (for failure reports). */
  output: () => string
  /** Stops the browser-mode host process (as Ctrl-C does), leaving the browser open. */
  stopHost(): Promise<void>
  close(): Promise<void>
}

export interface StartOptions {
  git?: boolean
  /** Files to create in the project before start. */
  files?: Record<string, string>
  /** Extra opencode config merged over the test config (e.g. permissions), or a function of it. */
  config?: Record<string, unknown> | ((base: ReturnType<typeof makeOpencodeConfig>) => Record<string, unknown>)
  /** Extra environment for the host (e.g. Retake's own settings, to check they stay its own). */
  env?: Record<string, string>
  /** Keep opencode's internal plugins (its provider sign-ins); off by default for speed. */
  defaultPlugins?: boolean
}

export async function startApp(opts: StartOptions = {}): Promise<AppUnderTest> {
  const fake = await startFakeLlm()
  const root = mkdtempSync(join(tmpdir(), 'retake-e2e-'))
  const project = join(root, 'project')
  const dataDir = join(root, 'data')
  mkdirSync(project, { recursive: true })
  for (const [name, content] of Object.entries(opts.files ?? {})) writeFileSync(join(project, name), content)
  if (opts.git) {
    execFileSync('git', ['init', '-q'], { cwd: project })
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '-A'], { cwd: project })
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: project })
  }
  const configPath = join(root, 'opencode.json')
  const base = makeOpencodeConfig({ fakeBaseUrl: fake.baseUrl, anthropicBaseUrl: fake.anthropicBaseUrl })
  const config = typeof opts.config === 'function' ? opts.config(base) : { ...base, ...opts.config }
  writeFileSync(configPath, JSON.stringify(config, null, 2))

  let out = ''
  const host: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'web/cli.ts', '--port', '0', '--data-dir', dataDir, '--opencode-config', configPath, '--project', project],
    {
      cwd: process.cwd(),
      env: { ...process.env, ...isolatedOpencodeEnv(join(root, 'host-home'), { defaultPlugins: opts.defaultPlugins }), ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  // A start that fails half-way (no URL, no browser, page never ready) must not leave the host and
  // its opencode server running behind the failed test.
  let browser: Browser | undefined
  const stopAll = async () => {
    await browser?.close().catch(() => {})
    await stopHost(host)
    await fake.close()
    rmSync(root, { recursive: true, force: true })
  }
  let url: string, origin: string, context: BrowserContext, page: Page
  try {
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`browser mode did not print its URL:\n${out}`)), 60_000)
      const onData = (c: Buffer) => {
        out += c.toString()
        const m = /running at (http:\/\/\S+)/.exec(out)
        if (m) {
          clearTimeout(timer)
          resolve(m[1])
        }
      }
      host.stdout!.on('data', onData)
      host.stderr!.on('data', (c: Buffer) => (out += c.toString()))
      host.on('exit', (code) => reject(new Error(`browser mode exited (${code}):\n${out}`)))
    })
    origin = new URL(url).origin

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    })
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] })
    page = await context.newPage()
    await page.goto(url)
    await page.locator('[data-app-state="ready"]').waitFor({ timeout: 60_000 })
  } catch (err) {
    await stopAll()
    throw err
  }

  return {
    fake,
    root,
    project,
    dataDir,
    url,
    origin,
    browser: browser!,
    context,
    page,
    output: () => out,
    stopHost: () => stopHost(host),
    close: stopAll,
  }
}

function stopHost(host: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (host.exitCode !== null || host.signalCode !== null) return resolve()
    host.once('exit', () => resolve())
    host.kill('SIGTERM')
    setTimeout(() => host.kill('SIGKILL'), 5_000).unref()
  })
}

/**
 * Closes the app after a test; when the test failed, keeps a screenshot and the host's output in
 * test-results/ first (afterEach runs before onTestFailed, when the page would already be gone).
 */
export async function closeApp(app: AppUnderTest | undefined, ctx: { task: { name: string; result?: { state?: string } } }): Promise<void> {
  if (!app) return
  if (ctx.task.result?.state === 'fail') await screenshotOnFailure(app, ctx.task.name)
  await app.close()
}

/** Keeps a screenshot of the page and the host's output. */
export async function screenshotOnFailure(app: AppUnderTest | undefined, name: string): Promise<void> {
  if (!app) return
  mkdirSync('test-results', { recursive: true })
  const file = join('test-results', `${name.replace(/[^a-z0-9]+/gi, '-')}.png`)
  await app.page.screenshot({ path: file, fullPage: true }).catch(() => {})
  writeFileSync(file.replace(/\.png$/, '.log'), app.output())
}

/** The chat's messages of one role, oldest first. */
export const messagesOf = (page: import('playwright-core').Page, role: 'user' | 'assistant') => page.locator(`[data-testid="message"][data-role="${role}"]`)

/** The composer, found as a user finds it: the textbox named "Message". */
export const composerOf = (page: import('playwright-core').Page) => page.getByRole('textbox', { name: 'Message', exact: true })

/** Waits until the locator matches exactly `n` elements (polls the page's state, not the clock). */
export async function waitForCount(locator: import('playwright-core').Locator, n: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const c = await locator.count()
    if (c === n) return
    if (Date.now() > deadline) throw new Error(`expected ${n} element(s) for ${locator}, found ${c}`)
    await locator.page().waitForTimeout(50)
  }
}

/**
 * Waits until the session is idle and every turn is sealed: what each turn changed on disk is
 * known to the page (the host seals on its own sight of idle, a moment after the page's).
 */
export async function turnsRecorded(page: import('playwright-core').Page): Promise<void> {
  await page.getByTestId('status-line').getByText(/idle/i).waitFor()
  await page.locator('[data-turns-sealed="true"]').waitFor({ state: 'attached' })
}

/** Waits until the locator's text contains `text`. */
export async function waitForText(locator: import('playwright-core').Locator, text: string | RegExp, timeoutMs = 20_000): Promise<string> {
  await locator.filter({ hasText: text }).first().waitFor({ timeout: timeoutMs })
  return (await locator.first().textContent()) ?? ''
}

/** Polls a condition on the app's state (not the clock) until it holds. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
