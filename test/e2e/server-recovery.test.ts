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
