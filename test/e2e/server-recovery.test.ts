/**
 * The embedded opencode server dies under the app: the UI says it is restarting, comes back by
 * itself, keeps what the user was typing, and the conversation goes on. And a provider that keeps
 * failing with 429 shows as "provider retrying" with Stop.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { readdirSync, readlinkSync } from 'node:fs'
import { closeApp, startApp, waitForText, type AppUnderTest } from './harness'

let app: AppUnderTest | undefined
afterEach(async (ctx) => {
  await closeApp(app, ctx)
  app = undefined
})

const messages = (role: 'user' | 'assistant') => app!.page.locator(`[data-testid="message"][data-role="${role}"]`)

/** The opencode process this app's host started: its working folder is the app's data dir. */
function opencodePid(dataDir: string): number {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (readlinkSync(`/proc/${name}/cwd`) === dataDir && readlinkSync(`/proc/${name}/exe`).includes('opencode')) return Number(name)
    } catch {
      // a process that went away, or one we may not inspect
    }
  }
  throw new Error(`no opencode process runs in ${dataDir}`)
}

describe('resilience', () => {
  it.skipIf(process.platform !== 'linux')('a crashed opencode server is restarted, the UI says so, the draft survives and the chat goes on', async () => {
    app = await startApp()
    const { page } = app
    await page.getByTestId('composer').fill('before the crash')
    await page.getByTestId('composer').press('Enter')
    await messages('assistant').last().getByText('echo: before the crash').waitFor()
    await page.getByTestId('composer').fill('typed while it restarts')

    process.kill(opencodePid(app.dataDir), 'SIGKILL')
    await page.locator('[data-testid="server-status"][data-state="restarting"]').waitFor()
    await waitForText(page.getByTestId('server-status'), 'restarting')

    // The session view comes back once the new server answers, with the draft where it was.
    const composer = page.getByTestId('composer')
    await composer.waitFor()
    expect(await composer.inputValue()).toBe('typed while it restarts')
    await composer.press('Enter')
    await messages('assistant').last().getByText('echo: typed while it restarts').waitFor()
    await waitForText(messages('user').first(), 'before the crash')
  })

  it('a reload that reaches no run of its own gets a styled page saying what to do; a stopped host leaves the tab saying so', async () => {
    app = await startApp()
    const { page, context, origin } = app
    const port = new URL(origin).port
    const violations: string[] = []
    const other = await context.newPage()
    other.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
    })
    // What a tab of an ended run meets when a new run holds the port: another name on it.
    for (const [url, sentence] of [
      [`http://${'0'.repeat(32)}.localhost:${port}/`, 'This address belongs to a Retake run that has stopped. Start Retake again, then open the address it prints.'],
      [`http://127.0.0.1:${port}/`, 'This Retake run answers only at the address it printed when it started'],
    ]) {
      const res = await other.goto(url)
      expect(res!.status()).toBe(421)
      await other.getByRole('heading', { name: 'Retake' }).waitFor()
      expect(await other.getByRole('alert').textContent()).toContain(sentence)
      // Styled (its style passed the page's own CSP), and nothing on it runs.
      expect(await other.locator('main').evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).not.toBe('0px')
      expect(await other.locator('script').count()).toBe(0)
    }
    // Without the session this browser got from the printed address (a fresh profile): 401, same kind of page.
    const fresh = await app.browser.newContext()
    const stranger = await fresh.newPage()
    expect((await stranger.goto(`${origin}/`))!.status()).toBe(401)
    await stranger.getByRole('alert').filter({ hasText: 'open that address' }).waitFor()
    await fresh.close()
    expect(violations).toEqual([])

    // The host process ends under the open tab: one sentence, the command, a way to copy it.
    await page.getByTestId('composer').fill('not sent yet')
    await app.stopHost()
    const notice = page.getByRole('alert').filter({ hasText: 'Retake stopped running. Start it again, then open the address it prints.' })
    await notice.waitFor()
    expect(await notice.getByLabel('Command that starts Retake').textContent()).toMatch(/^npm run web -- .*--project /)
    await notice.getByRole('button', { name: 'Copy the command' }).waitFor()
    await notice.getByText('Unsent text is still in this tab').waitFor()
    expect(await page.getByTestId('composer').inputValue()).toBe('not sent yet')
  })

  it('a provider answering 429 shows "provider retrying" with the attempt, and Stop ends it', async () => {
    app = await startApp()
    const { page, fake } = app
    // Slow enough retries to see them, quick enough for a test (opencode honours retry-after-ms).
    fake.setModelBehaviour('echo', { kind: 'error', status: 429, message: 'Injected failure FAIL429: slow down', retryAfterMs: 3000 })
    await page.getByTestId('composer').fill('please answer')
    await page.getByTestId('composer').press('Enter')
    await page.locator('[data-testid="status-line"][data-kind="retry"]').waitFor()
    await waitForText(page.getByTestId('status-line'), /attempt 1/i)
    await page.getByTestId('stop').click()
    await page.locator('[data-testid="status-line"][data-kind="idle"]').waitFor()
    // Stopped during the wait before the second attempt: the provider was asked once.
    expect(fake.chatRequests()).toHaveLength(1)
    expect(await page.getByTestId('error-block').count()).toBe(0)
  })
})
